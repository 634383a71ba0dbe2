import type { FastifyPluginAsync } from 'fastify';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import { staffAdminRoutes } from './staff.admin-routes.ts';
import type { StaffGuard } from './staff-guard.ts';
import type { StaffService } from './staff.service.ts';

export interface StaffFeatureOptions {
  staff: StaffService;
  guard: StaffGuard;
  counters: RateLimitRepository;
  rateLimitFactor: number;
  secureCookies: boolean;
  /** Signs the mark of a browser that signed in before (staff-device.ts). */
  deviceSecret: string;
}

/** Staff accounts: signing in and out, and the owner's management of the others (docs/back-office.md#staff-accounts). */
export const staffFeature: FastifyPluginAsync<StaffFeatureOptions> = async (app, options) => {
  await app.register(staffAdminRoutes, options);
};
