import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSchema } from '../../contract/admin/dashboard.ts';
import type { DashboardService } from './dashboard.admin-service.ts';

/** The dashboard's data (docs/back-office.md#dashboard). */
export const dashboardAdminRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.get('/dashboard', { schema: { response: { 200: dashboardSchema } } }, () => dashboard.dashboard());
};
