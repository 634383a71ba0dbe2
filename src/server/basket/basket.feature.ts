import type { FastifyPluginAsync } from 'fastify';
import type { BasketQuery } from '../../contract/basket.ts';
import type { Db } from '../db/database.ts';
import type { CheckoutThread } from '../orders/checkout-thread/checkout-thread.ts';
import { basketRoutes } from './basket.routes.ts';
import { createBasketService } from './basket.service.ts';

export interface BasketFeatureOptions {
  db: Db;
  /** On PostgreSQL, where a basket is priced off the event loop (orders.feature.ts). */
  checkoutThread: CheckoutThread | undefined;
  rateLimitFactor: number;
}

/** Pricing a basket (docs/rules.md#basket): the shop's own, or the checkout thread's when there is one. */
export const basketFeature: FastifyPluginAsync<BasketFeatureOptions> = async (
  app,
  { db, checkoutThread, rateLimitFactor },
) => {
  const basket = createBasketService(db.kysely);
  await app.register(basketRoutes, {
    prefix: '/api',
    basket: checkoutThread
      ? { ...basket, verify: (request: BasketQuery) => checkoutThread.verify(request, basket.verify) }
      : basket,
    rateLimitFactor,
  });
};
