import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  labelOrderIdParamsSchema,
  labelOrdersSchema,
  labelOutcomeSchema,
  labelOutcomesSchema,
  labelPdfQuerySchema,
  labelQueueSchema,
  packagingIdParamsSchema,
  packagingInputSchema,
  packagingListSchema,
  packagingSchema,
} from '../../contract/admin/shipping.ts';
import { sendPdf } from '../documents/documents.admin-routes.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { LabelsService } from './labels.admin-service.ts';
import type { PackagingsAdminService } from './packagings.admin-service.ts';

/** Packaging presets (docs/back-office.md#shipping-labels). */
export const packagingsAdminRoutes: FastifyPluginAsyncZod<{
  packagings: PackagingsAdminService;
  guard: StaffGuard;
}> = async (app, { packagings, guard }) => {
  app.get('/packagings', { schema: { response: { 200: packagingListSchema } } }, () => packagings.list());
  app.post(
    '/packagings',
    { schema: { body: packagingInputSchema, response: { 201: packagingSchema } } },
    async (request, reply) => reply.status(201).send(await packagings.create(request.body, guard.staffOf(request))),
  );
  app.put(
    '/packagings/:id',
    { schema: { params: packagingIdParamsSchema, body: packagingInputSchema, response: { 200: packagingSchema } } },
    (request) => packagings.update(request.params.id, request.body, guard.staffOf(request)),
  );
  app.delete('/packagings/:id', { schema: { params: packagingIdParamsSchema } }, async (request, reply) => {
    await packagings.remove(request.params.id, guard.staffOf(request));
    return reply.status(204).send();
  });
};

/**
 * Shipping labels (docs/back-office.md#shipping-labels): the orders waiting with their labels, and
 * making, printing, dispatching and cancelling them. Each answers what happened to every order.
 */
export const labelsAdminRoutes: FastifyPluginAsyncZod<{ labels: LabelsService; guard: StaffGuard }> = async (
  app,
  { labels, guard },
) => {
  app.get('/labels', { schema: { response: { 200: labelQueueSchema } } }, () => labels.queue());
  app.post(
    '/labels',
    { schema: { body: labelOrdersSchema, response: { 200: labelOutcomesSchema } } },
    async (request) => ({
      outcomes: await labels.make(request.body.orderIds, guard.staffOf(request)),
    }),
  );
  app.get('/labels.pdf', { schema: { querystring: labelPdfQuerySchema } }, async (request, reply) => {
    return sendPdf(reply, await labels.labelsPdf(request.query.orders), 'attachment');
  });
  app.get('/labels-and-slips.pdf', { schema: { querystring: labelPdfQuerySchema } }, async (request, reply) => {
    return sendPdf(reply, await labels.labelsAndSlipsPdf(request.query.orders), 'attachment');
  });
  app.post(
    '/labels/dispatch',
    { schema: { body: labelOrdersSchema, response: { 200: labelOutcomesSchema } } },
    async (request) => ({ outcomes: await labels.dispatch(request.body.orderIds, guard.staffOf(request)) }),
  );
  app.post(
    '/labels/:orderId/cancel',
    { schema: { params: labelOrderIdParamsSchema, response: { 200: labelOutcomeSchema } } },
    (request) => labels.cancel(request.params.orderId, guard.staffOf(request)),
  );
};
