import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import { dashboardAdminRoutes } from './dashboard.admin-routes.ts';
import { createDashboardService } from './dashboard.admin-service.ts';

export interface DashboardFeatureOptions {
  db: Db;
  lowStockThreshold: number;
}

/** The back office's first page: the day's sales and what needs doing (docs/back-office.md#dashboard). */
export const dashboardFeature: FastifyPluginAsync<DashboardFeatureOptions> = async (app, { db, lowStockThreshold }) => {
  await app.register(dashboardAdminRoutes, { dashboard: createDashboardService(db.kysely, { lowStockThreshold }) });
};
