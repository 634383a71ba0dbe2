import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  customerDetailSchema,
  customerIdParamsSchema,
  customerListQuerySchema,
  customerListSchema,
  customerRecordSchema,
  customerRefParamsSchema,
  eraseCustomerSchema,
} from '../../contract/admin/customers.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { CustomersAdminService } from './customers.admin-service.ts';

/** Customers in the back office (docs/back-office.md#customers). */
export const customersAdminRoutes: FastifyPluginAsyncZod<{
  customers: CustomersAdminService;
  guard: StaffGuard;
}> = async (app, { customers, guard }) => {
  const params = customerIdParamsSchema;
  app.get(
    '/customers',
    { schema: { querystring: customerListQuerySchema, response: { 200: customerListSchema } } },
    (request) => customers.list(request.query),
  );
  // A guest has no id: the list names each customer by a reference, never by an address in the path.
  app.get(
    '/customers/ref/:ref',
    { schema: { params: customerRefParamsSchema, response: { 200: customerRecordSchema } } },
    (request) => customers.record(request.params.ref),
  );
  app.get('/customers/:id', { schema: { params, response: { 200: customerDetailSchema } } }, (request) =>
    customers.detail(request.params.id),
  );
  // Everything held about one customer, whatever it comes to; an attachment, in JSON.
  const exported = { 200: z.looseObject({}) };
  app.get('/customers/:id/export', { schema: { params, response: exported } }, async (request, reply) => {
    const data = await customers.exportData(request.params.id, guard.staffOf(request));
    return reply
      .header('content-disposition', `attachment; filename="customer-${request.params.id}.json"`)
      .header('cache-control', 'no-store')
      .type('application/json')
      .serializer((payload) => JSON.stringify(payload, null, 2))
      .send(data);
  });
  app.post(
    '/customers/:id/erase',
    { schema: { params, body: eraseCustomerSchema, response: { 200: customerDetailSchema } } },
    (request) => customers.erase(request.params.id, request.body.confirmEmail, guard.staffOf(request)),
  );
};
