import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderCodeParams } from '../../contract/basket.ts';
import { orderStatusSchema, paymentHandoffAnswerSchema } from '../../contract/payments.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import { limitHandoffs } from './handoff-limits.ts';
import type { PaymentsService } from './payments.service.ts';
import { apiErrorSchema } from '../../contract/errors.ts';

/**
 * The payment calls the shop's pages make, whatever the provider, under /api; and each provider's
 * own callbacks and calls (registered at the root with their full paths, each checked by its own
 * protocol).
 */
export const paymentsRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  counters: RateLimitRepository;
  rateLimitFactor: number;
}> = async (app, { payments, counters, rateLimitFactor }) => {
  // Before any handoff route is registered, the providers' own among them.
  limitHandoffs(app, counters, rateLimitFactor);
  app.get('/api/payment-provider', (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(payments.provider()),
  );
  app.get(
    '/api/payment-handoff/:code',
    // 409: the order, or one it replaced, is paid already (ORDER_ALREADY_PAID).
    { schema: { params: orderCodeParams, response: { 200: paymentHandoffAnswerSchema, 409: apiErrorSchema } } },
    (request) => payments.handoff(request.params.code),
  );
  app.get(
    '/api/order-status/:code',
    { schema: { params: orderCodeParams, response: { 200: orderStatusSchema } } },
    (request) => payments.orderStatus(request.params.code),
  );
  for (const provider of payments.providers) await app.register(provider.routes);
};
