import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import { createPackagingsAdminService } from './packagings.admin-service.ts';
import { packagingsAdminRoutes } from './shipping.admin-routes.ts';

export interface ShippingAdminFeatureOptions {
  db: Db;
  guard: StaffGuard;
}

/** Shipping in the back office (docs/back-office.md#shipping-labels): packaging presets and labels. */
export const shippingAdminFeature: FastifyPluginAsync<ShippingAdminFeatureOptions> = async (app, { db, guard }) => {
  await app.register(packagingsAdminRoutes, { guard, packagings: createPackagingsAdminService(db.kysely) });
};
