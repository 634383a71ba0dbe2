import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancelSchema,
  deliveryDetailsSchema,
  fulfilmentSchema,
  orderDetailSchema,
  orderListQuerySchema,
  orderListSchema,
  orderNoteSchema,
  orderNumberParamsSchema,
  refundSchema,
} from '../../contract/admin/orders.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { OrdersAdminService } from './orders.admin-service.ts';

/** Orders in the back office (docs/back-office.md#orders), for owners and staff alike. */
export const ordersAdminRoutes: FastifyPluginAsyncZod<{ orders: OrdersAdminService; guard: StaffGuard }> = async (
  app,
  { orders, guard },
) => {
  const params = orderNumberParamsSchema;
  app.get('/orders', { schema: { querystring: orderListQuerySchema, response: { 200: orderListSchema } } }, (request) =>
    orders.list(request.query),
  );
  app.get('/orders.csv', { schema: { querystring: orderListQuerySchema } }, (request, reply) => {
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="orders-${day}.csv"`)
      .header('cache-control', 'no-store')
      .type('text/csv; charset=utf-8')
      .send(Readable.from(orders.csv(request.query)));
  });
  app.get('/orders/:orderNumber', { schema: { params, response: { 200: orderDetailSchema } } }, (request) =>
    orders.detail(request.params.orderNumber),
  );
  app.post(
    '/orders/:orderNumber/dispatch',
    { schema: { params, body: fulfilmentSchema, response: { 200: orderDetailSchema } } },
    (request) => orders.dispatch(request.params.orderNumber, request.body, guard.staffOf(request)),
  );
  app.post('/orders/:orderNumber/deliver', { schema: { params, response: { 200: orderDetailSchema } } }, (request) =>
    orders.deliver(request.params.orderNumber, guard.staffOf(request)),
  );
  app.post(
    '/orders/:orderNumber/ready-for-collection',
    { schema: { params, response: { 200: orderDetailSchema } } },
    (request) => orders.readyForCollection(request.params.orderNumber, guard.staffOf(request)),
  );
  app.post('/orders/:orderNumber/collect', { schema: { params, response: { 200: orderDetailSchema } } }, (request) =>
    orders.collect(request.params.orderNumber, guard.staffOf(request)),
  );
  app.post(
    '/orders/:orderNumber/cancel',
    { schema: { params, body: cancelSchema, response: { 200: orderDetailSchema } } },
    (request) => orders.cancel(request.params.orderNumber, request.body.reason, guard.staffOf(request)),
  );
  app.post(
    '/orders/:orderNumber/refund',
    { schema: { params, body: refundSchema, response: { 200: orderDetailSchema } } },
    (request) => orders.refund(request.params.orderNumber, request.body, guard.staffOf(request)),
  );
  app.post(
    '/orders/:orderNumber/notes',
    { schema: { params, body: orderNoteSchema, response: { 200: orderDetailSchema } } },
    (request) => orders.note(request.params.orderNumber, request.body.note, guard.staffOf(request)),
  );
  app.put(
    '/orders/:orderNumber/delivery-details',
    { schema: { params, body: deliveryDetailsSchema, response: { 200: orderDetailSchema } } },
    (request) => orders.changeDeliveryDetails(request.params.orderNumber, request.body, guard.staffOf(request)),
  );
  app.post(
    '/orders/:orderNumber/resend-confirmation',
    { schema: { params, response: { 200: orderDetailSchema } } },
    (request) => orders.resendConfirmation(request.params.orderNumber, guard.staffOf(request)),
  );
};
