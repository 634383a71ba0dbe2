import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { MetricsHooks } from '../metrics/metrics.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { RefundingProvider } from './order-lifecycle.ts';
import { ordersAdminRoutes } from './orders.admin-routes.ts';
import { createOrdersAdminService, type OrdersAdminService } from './orders.admin-service.ts';
import type { ReleasedRefundsOptions } from './released-refunds.ts';

export interface OrdersAdminFeatureOptions {
  db: Db;
  guard: StaffGuard;
  /** The provider that took an order's payment, to refund through it (payments.feature.ts). */
  providerOf: (id: string | null) => RefundingProvider | undefined;
  metrics: MetricsHooks | undefined;
  backgroundJobs: boolean;
  /** The signed link to an order's VAT invoice, for the confirmation sent again. */
  invoiceUrl: (orderNumber: number, linkVersion: number) => string;
  /** What the sweep needs to give back what waited on a refund never made (released-refunds.ts). */
  releasedRefunds: ReleasedRefundsOptions;
}

/** The back office's orders (docs/back-office.md#orders), and the sweep of refunds never confirmed. */
export const ordersAdminFeature: FastifyPluginAsync<OrdersAdminFeatureOptions> = async (app, options) => {
  const { db, guard, providerOf, metrics } = options;
  const orders = createOrdersAdminService(db.kysely, {
    providerOf,
    invoiceUrl: options.invoiceUrl,
    releasedRefunds: options.releasedRefunds,
    ...(metrics ? { onOrderEvent: metrics.orderEvent } : {}),
  });
  scheduleRefundSettling(app, orders, options.backgroundJobs);
  await app.register(ordersAdminRoutes, { guard, orders });
};

/** Every five minutes, refunds a provider never confirmed are asked about again (docs/back-office.md#orders). */
function scheduleRefundSettling(app: FastifyInstance, orders: OrdersAdminService, enabled: boolean): void {
  if (!enabled) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      orders
        .settleUnconfirmedRefunds()
        .catch((error: unknown) => app.log.error({ err: error }, 'unconfirmed refunds not settled'));
    }, 5 * 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
