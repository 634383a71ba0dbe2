import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  basketRequestSchema,
  deliveryMethodRateListSchema,
  deliveryMethodsParams,
  pricedBasketSchema,
} from '../../contract/basket.ts';
import type { BasketService } from './basket.service.ts';

export const basketRoutes: FastifyPluginAsyncZod<{ basket: BasketService }> = async (app, { basket }) => {
  app.post(
    '/verify-basket',
    { schema: { body: basketRequestSchema, response: { 200: pricedBasketSchema } } },
    (request) => basket.verify(request.body),
  );
  app.get(
    '/delivery-methods/:countryId/:itemsTotal',
    { schema: { params: deliveryMethodsParams, response: { 200: deliveryMethodRateListSchema } } },
    (request) => basket.deliveryMethods(request.params.countryId, request.params.itemsTotal),
  );
};
