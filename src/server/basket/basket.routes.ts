import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  basketRequestSchema,
  deliveryMethodRateListSchema,
  deliveryMethodsParams,
  pricedBasketSchema,
} from '../../contract/basket.ts';
import { voucherGuessLimit } from '../http/rate-limit/voucher-guesses.ts';
import type { BasketService } from './basket.service.ts';

export const basketRoutes: FastifyPluginAsyncZod<{ basket: BasketService; rateLimitFactor: number }> = async (
  app,
  { basket, rateLimitFactor },
) => {
  app.post(
    '/verify-basket',
    {
      // Guessing voucher codes is limited; checking a basket is not (docs/rules.md#limits-on-one-client).
      preHandler: voucherGuessLimit(app, rateLimitFactor),
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
