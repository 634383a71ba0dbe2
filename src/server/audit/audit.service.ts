import type { Kysely, Selectable } from 'kysely';
import type { AuditEntryView } from '../../contract/admin/audit.ts';
import type { AuditLogTable, Database } from '../db/schema.ts';
import { auditOf, auditPage } from './audit.repository.ts';

/** Reading the audit log: for one order or customer, or the whole log a page at a time. */
export function createAuditService(db: Kysely<Database>) {
  return {
    async of(entityType: string, entityId: string | number): Promise<AuditEntryView[]> {
      return (await auditOf(db, entityType, entityId)).map(auditView);
    },
    async page(options: { limit: number; before?: number | undefined; entityType?: string | undefined }) {
      const rows = await auditPage(db, {
        limit: options.limit,
        ...(options.before !== undefined ? { beforeId: options.before } : {}),
        ...(options.entityType !== undefined ? { entityType: options.entityType } : {}),
      });
      const entries = rows.map(auditView);
      return { entries, nextBefore: rows.length === options.limit ? (rows.at(-1)?.id ?? null) : null };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;

export function auditView(row: Selectable<AuditLogTable>): AuditEntryView {
  return {
    id: row.id,
    at: row.at,
    staffEmail: row.staff_email,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    before: row.before === null ? null : JSON.parse(row.before),
    after: row.after === null ? null : JSON.parse(row.after),
  };
}
