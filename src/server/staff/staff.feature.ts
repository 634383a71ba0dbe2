import type { FastifyPluginAsync } from 'fastify';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import { rolesAdminRoutes } from './roles.admin-routes.ts';
import { createRolesService } from './roles.service.ts';
import { staffAdminRoutes } from './staff.admin-routes.ts';
import type { StaffGuard } from './staff-guard.ts';
import type { StaffService } from './staff.service.ts';
import type { Db } from '../db/database.ts';

export interface StaffFeatureOptions {
  db: Db;
  staff: StaffService;
  guard: StaffGuard;
  counters: RateLimitRepository;
  rateLimitFactor: number;
  secureCookies: boolean;
  /** Signs the mark of a browser that signed in before (staff-device.ts). */
  deviceSecret: string;
}

/**
 * Staff accounts: signing in and out, the management of the others (docs/back-office.md#staff-accounts)
 * and the roles they hold (#permissions).
 */
export const staffFeature: FastifyPluginAsync<StaffFeatureOptions> = async (app, options) => {
  await app.register(staffAdminRoutes, options);
  await app.register(rolesAdminRoutes, { roles: createRolesService(options.db.kysely), guard: options.guard });
};
