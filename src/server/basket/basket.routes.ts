import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  basketRequestSchema,
  deliveryMethodRateListSchema,
  deliveryMethodsParams,
  pricedBasketSchema,
} from '../../contract/basket.ts';
import type { BasketService } from './basket.service.ts';

export const basketRoutes: FastifyPluginAsyncZod<{ basket: BasketService; rateLimitFactor: number }> = async (
  app,
  { basket, rateLimitFactor },
) => {
  app.post(
    '/verify-basket',
    {
      // Guessing voucher codes is limited; checking a basket is not (DESIGN.md section 6).
      config: {
        rateLimit: {
          max: Math.max(1, Math.round(20 * rateLimitFactor)),
          timeWindow: '1 minute',
          hook: 'preHandler',
          allowList: (request: { body?: unknown }) =>
            !(request.body as { voucherCodeAttempt?: unknown } | undefined)?.voucherCodeAttempt,
        },
      },
      schema: { body: basketRequestSchema, response: { 200: pricedBasketSchema } },
    },
    (request) => basket.verify(request.body),
  );
  app.get(
    '/delivery-methods/:countryId/:itemsTotal',
    { schema: { params: deliveryMethodsParams, response: { 200: deliveryMethodRateListSchema } } },
    (request) => basket.deliveryMethods(request.params.countryId, request.params.itemsTotal),
  );
};
