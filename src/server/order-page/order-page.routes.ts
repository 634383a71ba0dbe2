import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderPageParamsSchema, orderPageSchema } from '../../contract/order-page.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import type { OrderPageService } from './order-page.service.ts';

/**
 * GET /api/order-page/{key}: the customer's order by its signed link (docs/rules.md#the-customers-order-page).
 * Limited as the recovery link is; never kept by a browser or proxy; its address is redacted in
 * logs and traces (http/redact-address.ts).
 */
export const orderPageRoutes: FastifyPluginAsyncZod<{ orderPage: OrderPageService; rateLimitFactor: number }> = async (
  app,
  { orderPage, rateLimitFactor },
) => {
  app.get(
    '/order-page/:key',
    {
      ...perMinute(30, rateLimitFactor),
      schema: { params: orderPageParamsSchema, response: { 200: orderPageSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return orderPage.view(request.params.key);
    },
  );
};
