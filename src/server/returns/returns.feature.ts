import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../cache/cached-loader.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RefundingProvider } from '../orders/order-lifecycle.ts';
import { createOrderLinks, orderOfLinkKey } from '../orders/order-links.ts';
import { findOrderLinkVersion } from '../orders/orders.repository.ts';
import { returnsRoutes } from './returns.routes.ts';
import { createReturnsService, type ReturnsService } from './returns.service.ts';

/**
 * Returns (docs/rules.md#returns): one service for the order page's routes (registered here) and
 * the back office's (back-office.feature.ts registers returns.admin-routes.ts with it).
 */
export function createShopReturns(
  db: Db,
  options: {
    config: Pick<Config, 'publicUrl'>;
    /** "Name, address" as the owner's settings stand now. */
    returnAddress: () => Promise<string>;
    cookieSecret: string;
    providerOf: (id: string | null) => RefundingProvider | undefined;
    mailer: Pick<Mailer, 'wake'>;
    now?: Clock | undefined;
  },
) {
  const links = createOrderLinks(options.cookieSecret);
  const clock = options.now;
  const service = createReturnsService(db.kysely, {
    now: () => new Date(clock ? clock() : Date.now()),
    returnAddress: options.returnAddress,
    providerOf: options.providerOf,
    wakeMail: () => options.mailer.wake(),
  });
  const orderOfKey = (key: string) =>
    orderOfLinkKey(links, key, (orderNumber) => findOrderLinkVersion(db.kysely, orderNumber));
  return { service, orderOfKey };
}

export const returnsFeature: FastifyPluginAsync<{
  returns: ReturnsService;
  orderOfKey: (key: string) => Promise<number | undefined>;
  rateLimitFactor: number;
}> = async (app, options) => {
  await app.register(returnsRoutes, { prefix: '/api', ...options });
};
