import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  basketCommitSchema,
  commitResponseSchema,
  orderCodeParams,
  pricedBasketSchema,
} from '../../contract/basket.ts';
import type { OrdersService } from './orders.service.ts';

export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  app.post('/basket', { schema: { body: basketCommitSchema, response: { 200: commitResponseSchema } } }, (request) =>
    orders.commit(request.body),
  );
  app.get(
    '/recover-basket/:code',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { params: orderCodeParams, response: { 200: pricedBasketSchema } },
    },
    (request) => orders.recover(request.params.code),
  );
};
