import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { MetricsHooks } from '../metrics/metrics.ts';
import type { Tracing } from '../tracing/tracing.ts';
import { startCheckoutThread, type CheckoutThread } from './checkout-thread/checkout-thread.ts';
import { mailShopNewOrders } from './new-order-mail.ts';
import { ordersRoutes } from './orders.routes.ts';
import { createOrdersService, type OrdersService } from './orders.service.ts';

/**
 * On PostgreSQL checkout (pricing a basket, committing it) runs in a thread of its own, off this
 * busy event loop (ADR 0020); with tracing on it stays here, where the statements' spans are made.
 * Basket, orders and the back office's delivery settings use it; it closes with the app.
 */
export function startCheckoutThreadFor(
  app: FastifyInstance,
  db: Db,
  config: Pick<Config, 'checkoutThread' | 'databaseCheckoutPoolSize' | 'reservationMinutes' | 'unpaidOrderLimits'>,
  options: { metrics: MetricsHooks | undefined; tracing: Tracing | undefined },
): CheckoutThread | undefined {
  if (!db.manyConnections || !config.checkoutThread || options.tracing) return undefined;
  const { metrics } = options;
  const checkoutThread = startCheckoutThread(
    {
      databaseUrl: db.reopen.url,
      ...(db.reopen.pgSchema ? { pgSchema: db.reopen.pgSchema } : {}),
      poolSize: config.databaseCheckoutPoolSize,
      ...(db.reopen.timeouts ? { timeouts: db.reopen.timeouts } : {}),
      reservationMinutes: config.reservationMinutes,
      unpaidOrderLimits: config.unpaidOrderLimits,
    },
    {
      ...(metrics ? { onOrderEvent: metrics.orderEvent } : {}),
      log: (error) => app.log.error({ err: error }, 'the checkout thread failed'),
    },
  );
  app.addHook('onClose', () => checkoutThread.close());
  return checkoutThread;
}

export interface OrdersFeatureOptions {
  db: Db;
  config: Pick<
    Config,
    'reservationMinutes' | 'unpaidOrderLimits' | 'rateLimitFactor' | 'backgroundJobs' | 'ordersEmail' | 'publicUrl'
  >;
  metrics: MetricsHooks | undefined;
  checkoutThread: CheckoutThread | undefined;
  /** The signed-in customer of a request, if any (accounts.feature.ts), on the money path's connections. */
  customerOf: (request: FastifyRequest) => Promise<number | undefined>;
  /** Where the new-order alert goes as the owner's settings stand now; `config.ordersEmail` without it. */
  ordersEmailNow?: () => Promise<string>;
}

/** Committing a basket to an order, and the sweep that gives back what unpaid orders held. */
export const ordersFeature: FastifyPluginAsync<OrdersFeatureOptions> = async (app, options) => {
  const { db, config, metrics, checkoutThread } = options;
  // On the money path's own connections: a sale's browsing never makes a checkout wait for one
  // (docs/decisions/0020-checkout-first.md).
  const orders = createOrdersService(db.checkout, {
    reservationMinutes: config.reservationMinutes,
    unpaidOrderLimits: config.unpaidOrderLimits,
    ...(metrics ? { onOrderEvent: metrics.orderEvent } : {}),
  });
  await app.register(ordersRoutes, {
    prefix: '/api',
    orders: checkoutThread ? { ...orders, commit: checkoutThread.commit } : orders,
    customerOf: options.customerOf,
    rateLimitFactor: config.rateLimitFactor,
  });
  scheduleReservationSweep(app, orders, config.backgroundJobs);
  scheduleNewOrderMail(app, db, config, options.ordersEmailNow ?? (() => Promise.resolve(config.ordersEmail)));
};

/** Every minute, the shop is told of the orders paid since (new-order-mail.ts). */
function scheduleNewOrderMail(
  app: FastifyInstance,
  db: Db,
  config: Pick<Config, 'backgroundJobs' | 'publicUrl'>,
  ordersEmail: () => Promise<string>,
): void {
  if (!config.backgroundJobs) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      ordersEmail()
        .then((to) => mailShopNewOrders(db.kysely, { to, publicUrl: config.publicUrl, now: () => new Date() }))
        .catch((error: unknown) => app.log.error({ err: error }, 'the shop was not told of its new orders'));
    }, 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/** Every minute, unpaid orders past their reservation give their stock back (docs/rules.md#orders-and-stock). */
function scheduleReservationSweep(app: FastifyInstance, orders: OrdersService, enabled: boolean): void {
  if (!enabled) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      orders
        .releaseExpiredReservations()
        .catch((error: unknown) => app.log.error({ err: error }, 'reservation sweep failed'));
    }, 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
