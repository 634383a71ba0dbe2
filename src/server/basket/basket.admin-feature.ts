import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { CheckoutThread } from '../orders/checkout-thread/checkout-thread.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import { deliveryAdminRoutes } from './delivery.admin-routes.ts';
import { createDeliveryAdminService } from './delivery.admin-service.ts';
import { vouchersAdminRoutes } from './vouchers.admin-routes.ts';
import { createVouchersAdminService } from './vouchers.admin-service.ts';

export interface BasketAdminFeatureOptions {
  db: Db;
  guard: StaffGuard;
  /** Keeps its own copy of the delivery settings, forgotten on each change (orders.feature.ts). */
  checkoutThread: CheckoutThread | undefined;
}

/** Vouchers and delivery settings (docs/back-office.md#stock-vouchers-and-delivery). */
export const basketAdminFeature: FastifyPluginAsync<BasketAdminFeatureOptions> = async (
  app,
  { db, guard, checkoutThread },
) => {
  await app.register(vouchersAdminRoutes, { guard, vouchers: createVouchersAdminService(db.kysely) });
  await app.register(deliveryAdminRoutes, {
    guard,
    delivery: createDeliveryAdminService(db.kysely, {
      ...(checkoutThread ? { onChange: checkoutThread.forgetReferenceData } : {}),
    }),
  });
};
