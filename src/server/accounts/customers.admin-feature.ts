import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import { customersAdminRoutes } from './customers.admin-routes.ts';
import { createCustomersAdminService } from './customers.admin-service.ts';

export interface CustomersAdminFeatureOptions {
  db: Db;
  guard: StaffGuard;
}

/** Shoppers' accounts as staff see them: look up, disable, erase (docs/back-office.md#customers). */
export const customersAdminFeature: FastifyPluginAsync<CustomersAdminFeatureOptions> = async (app, { db, guard }) => {
  await app.register(customersAdminRoutes, { guard, customers: createCustomersAdminService(db.kysely) });
};
