import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageQuerySchema, auditPageSchema } from '../../contract/admin/audit.ts';
import type { AuditService } from './audit.service.ts';

/** The audit log page's data (docs/back-office.md#audit-log). */
export const auditAdminRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.get('/audit', { schema: { querystring: auditPageQuerySchema, response: { 200: auditPageSchema } } }, (request) =>
    audit.page(request.query),
  );
};
