import type { FastifyPluginAsync } from 'fastify';
import type { LabelQueue } from '../../contract/admin/shipping.ts';
import type { Db } from '../db/database.ts';
import { createOrdersAdminService } from '../orders/orders.admin-service.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { LabelCarrier } from './label-carrier.ts';
import { createLabelsService } from './labels.admin-service.ts';
import { createPackagingsAdminService } from './packagings.admin-service.ts';
import { labelsAdminRoutes, packagingsAdminRoutes } from './shipping.admin-routes.ts';

export interface ShippingAdminFeatureOptions {
  db: Db;
  guard: StaffGuard;
  carrier: LabelCarrier | undefined;
  mode: LabelQueue['mode'];
  /** An order's packing slip as a PDF (the documents feature's), printed after its label. */
  packingSlipPdf: (orderNumber: number) => Promise<{ bytes: Buffer }>;
  /** The labels' clock in milliseconds; the system's unless a test gives its own. */
  clock?: () => number;
  /** The signed link to an order's VAT invoice (the orders service's dispatch needs it for nothing else). */
  invoiceUrl: (orderNumber: number, linkVersion: number) => string;
}

/** Shipping in the back office (docs/back-office.md#shipping-labels): packaging presets and labels. */
export const shippingAdminFeature: FastifyPluginAsync<ShippingAdminFeatureOptions> = async (app, options) => {
  const { db, guard } = options;
  await app.register(packagingsAdminRoutes, { guard, packagings: createPackagingsAdminService(db.kysely) });
  // Dispatch goes through the orders feature's own service: the lifecycle writes the orders.
  const orders = createOrdersAdminService(db.kysely, { invoiceUrl: options.invoiceUrl });
  await app.register(labelsAdminRoutes, {
    guard,
    labels: createLabelsService(db.kysely, {
      carrier: options.carrier,
      mode: options.mode,
      dispatch: orders.dispatchAlongside,
      packingSlipPdf: options.packingSlipPdf,
      ...(options.clock ? { now: () => new Date(options.clock!()) } : {}),
    }),
  });
};
