import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderCodeParams } from '../../contract/basket.ts';
import {
  opayoReturnQuery,
  orderNumberParams,
  sagepayConfigQuery,
  orderStatusSchema,
  paymentHandoffSchema,
  paypalConfigSchema,
  sagepayConfigSchema,
} from '../../contract/payments.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import type { PaymentsService } from './payments.service.ts';

/** Payment calls under /api. The provider callbacks are checked by their own protocols. */
export const paymentsRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService; rateLimitFactor: number }> = async (
  app,
  { payments, rateLimitFactor },
) => {
  // PayPal's IPN must be posted back byte for byte, so form bodies reach this plugin unparsed.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, body),
  );

  app.get('/payment-provider', (_request, reply) => reply.type('text/plain; charset=utf-8').send(payments.provider()));
  app.get('/paypal-config', { schema: { response: { 200: paypalConfigSchema } } }, () => payments.paypalConfig());
  app.get(
    '/paypal-handoff/:code',
    { schema: { params: orderCodeParams, response: { 200: paymentHandoffSchema } } },
    (request) => payments.paypalHandoff(request.params.code),
  );
  app.get(
    '/sagepay-config/:orderNumber',
    { schema: { params: orderNumberParams, querystring: sagepayConfigQuery, response: { 200: sagepayConfigSchema } } },
    (request) => payments.sagepayConfig(request.params.orderNumber, request.query.code),
  );
  app.get(
    '/order-status/:code',
    { schema: { params: orderCodeParams, response: { 200: orderStatusSchema } } },
    (request) => payments.orderStatus(request.params.code),
  );

  // PayPal posts from a few addresses and sends again later what was refused, so a limit per client
  // loses nothing; it stops one client making the shop post junk to PayPal and store it.
  app.post('/payments/paypal/ipn', perMinute(120, rateLimitFactor), async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    await payments.handlePaypalIpn(body);
    // PayPal wants an empty 200 for every IPN it delivered, whatever we made of it.
    return reply.status(200).send('');
  });

  // One answer for every Crypt, read or not, ours or not (see handleOpayoReturn), and a limit per
  // client: a shopper comes back once or twice; an attacker needs thousands of tries.
  app.get(
    '/payments/opayo/return',
    { ...perMinute(20, rateLimitFactor), schema: { querystring: opayoReturnQuery } },
    async (request, reply) => {
      const outcome = await payments.handleOpayoReturn(request.query.crypt);
      request.log.info({ outcome }, 'Opayo return');
      return reply.redirect('/checkout-confirm', 303);
    },
  );
};
