import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  voucherDetailSchema,
  voucherIdParamsSchema,
  voucherInputSchema,
  voucherListQuerySchema,
  voucherListSchema,
} from '../../contract/admin/vouchers.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { VouchersAdminService } from './vouchers.admin-service.ts';

/** Vouchers in the back office (docs/back-office.md#vouchers), for owners and staff alike. */
export const vouchersAdminRoutes: FastifyPluginAsyncZod<{ vouchers: VouchersAdminService; guard: StaffGuard }> = async (
  app,
  { vouchers, guard },
) => {
  const params = voucherIdParamsSchema;
  app.get(
    '/vouchers',
    { schema: { querystring: voucherListQuerySchema, response: { 200: voucherListSchema } } },
    (request) => vouchers.list(request.query),
  );
  app.post(
    '/vouchers',
    { schema: { body: voucherInputSchema, response: { 201: voucherDetailSchema } } },
    async (request, reply) => reply.status(201).send(await vouchers.create(request.body, guard.staffOf(request))),
  );
  app.get('/vouchers/:id', { schema: { params, response: { 200: voucherDetailSchema } } }, (request) =>
    vouchers.detail(request.params.id),
  );
  app.put(
    '/vouchers/:id',
    { schema: { params, body: voucherInputSchema, response: { 200: voucherDetailSchema } } },
    (request) => vouchers.update(request.params.id, request.body, guard.staffOf(request)),
  );
};
