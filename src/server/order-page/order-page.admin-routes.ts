import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderNumberParamsSchema } from '../../contract/admin/orders.ts';
import { orderLinkRevokedSchema } from '../../contract/order-page.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { OrderPageService } from './order-page.service.ts';

/**
 * POST /api/admin/orders/{n}/order-link/revoke: staff revoke every link to the order's page and
 * the customer is e-mailed a new one (docs/back-office.md#orders), for owners and staff alike.
 */
export const orderPageAdminRoutes: FastifyPluginAsyncZod<{ orderPage: OrderPageService; guard: StaffGuard }> = async (
  app,
  { orderPage, guard },
) => {
  app.post(
    '/orders/:orderNumber/order-link/revoke',
    { schema: { params: orderNumberParamsSchema, response: { 200: orderLinkRevokedSchema } } },
    (request) => orderPage.revoke(request.params.orderNumber, guard.staffOf(request)),
  );
};
