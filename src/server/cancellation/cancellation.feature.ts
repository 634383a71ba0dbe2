import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { RefundingProvider } from '../orders/order-lifecycle.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { cancellationRoutes } from './cancellation.routes.ts';
import { createCancellations } from './cancellation.service.ts';

/** Cancelling before dispatch from the customer's order page (docs/rules.md#cancelling-before-dispatch). */
export const cancellationFeature: FastifyPluginAsync<{
  db: Db;
  cookieSecret: string;
  providerOf: (id: string | null) => RefundingProvider | undefined;
  /** Where the shop is told of a cancellation, as the owner's settings stand now. */
  ordersEmail: () => Promise<string>;
  publicUrl: string;
  rateLimitFactor: number;
}> = async (app, options) => {
  const cancellations = createCancellations(options.db.kysely, {
    links: createOrderLinks(options.cookieSecret),
    providerOf: options.providerOf,
    shopEmail: options.ordersEmail,
    publicUrl: options.publicUrl,
    now: () => new Date().toISOString(),
  });
  await app.register(cancellationRoutes, { prefix: '/api', cancellations, rateLimitFactor: options.rateLimitFactor });
};
