import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import { auditAdminRoutes } from './audit.admin-routes.ts';
import { createAuditService } from './audit.service.ts';

/** The audit log of staff changes, as the back office reads it (docs/back-office.md#audit-log). */
export const auditFeature: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  await app.register(auditAdminRoutes, { audit: createAuditService(db.kysely) });
};
