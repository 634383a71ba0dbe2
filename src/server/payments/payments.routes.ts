import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderCodeParams } from '../../contract/basket.ts';
import { orderStatusSchema, paymentHandoffAnswerSchema } from '../../contract/payments.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import { limitHandoffs } from './handoff-limits.ts';
import type { ProviderAnswer, ProviderRoute } from './payment-provider.ts';
import type { PaymentsService } from './payments.service.ts';
import { apiErrorSchema } from '../../contract/errors.ts';

/**
 * The payment calls the shop's pages make, whatever the provider, under /api; and the routes each
 * provider's adapter declares (its returns, notifications and calls of its own), registered here at
 * their full paths, each checked by its own protocol in the adapter.
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
  for (const provider of payments.providers) {
    // Each provider in a scope of its own: a body parser one protocol needs applies to its routes only.
    await app.register(async (scope) => {
      if (provider.routes.some((route) => route.body === 'raw-form'))
        // PayPal's IPN must be posted back byte for byte, so form bodies reach its handler unparsed.
        scope.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string', bodyLimit: 64 * 1024 },
          (_request, body, done) => done(null, body),
        );
      for (const route of provider.routes) registerProviderRoute(scope, route, rateLimitFactor);
    });
  }
};

function registerProviderRoute(
  app: Parameters<typeof paymentsRoutes>[0],
  route: ProviderRoute,
  rateLimitFactor: number,
): void {
  app.route({
    method: route.method,
    url: route.url,
    ...(route.perMinute ? perMinute(route.perMinute, rateLimitFactor) : {}),
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    ...(route.schema ? { schema: route.schema } : {}),
    handler: async (request, reply) => {
      const answer: ProviderAnswer = await route.handle({
        query: request.query,
        params: request.params,
        body: request.body,
        headers: request.headers,
        log: request.log,
      });
      if (answer.kind === 'redirect') return reply.redirect(answer.to, 303);
      if (answer.kind === 'empty') return reply.status(200).send('');
      return answer.body;
    },
  });
}
