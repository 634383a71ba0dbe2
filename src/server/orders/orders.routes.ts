import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  basketCommitSchema,
  commitResponseSchema,
  orderCodeParams,
  pricedBasketSchema,
} from '../../contract/basket.ts';
import { apiErrorSchema } from '../../contract/errors.ts';
import { clientKeyOf } from '../http/client-address.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import { voucherGuessLimit } from '../http/rate-limit/voucher-guesses.ts';
import type { OrdersService } from './orders.service.ts';

export const ordersRoutes: FastifyPluginAsyncZod<{
  orders: OrdersService;
  /** The signed-in customer of a request, if any: their orders are linked to their account. */
  customerOf: (request: FastifyRequest) => Promise<number | undefined>;
  rateLimitFactor: number;
}> = async (app, { orders, customerOf, rateLimitFactor }) => {
  app.post(
    '/basket',
    {
      // A commit prices the voucher it carries too, so it counts toward the same guess limit.
      preHandler: voucherGuessLimit(app, rateLimitFactor),
      // 409: an order held too long, or the order the basket came back from paid already;
      // 422: one too large or with nothing to pay (429: too many unpaid ones).
      schema: {
        body: basketCommitSchema,
        response: { 200: commitResponseSchema, 409: apiErrorSchema, 422: apiErrorSchema },
      },
    },
    async (request) => orders.commit(request.body, await customerOf(request), clientKeyOf(request.ip)),
  );
  app.get(
    '/recover-basket/:code',
    {
      ...perMinute(30, rateLimitFactor),
      schema: { params: orderCodeParams, response: { 200: pricedBasketSchema } },
    },
    (request) => orders.recover(request.params.code),
  );
};
