import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The audit log's SQL (docs/back-office.md#audit-log). */

export interface AuditEntry {
  /** Who acted: a member of staff, or (id null) a shopper by their e-mail address. */
  staff: { id: number | null; email: string };
  action: string;
  entityType: string;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
  at: string;
}

/** Written in the caller's transaction, so an action and its entry land together or not at all. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      staff_id: entry.staff.id,
      staff_email: entry.staff.email,
      at: entry.at,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: String(entry.entityId),
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
    })
    .execute();
}

export function auditOf(db: Kysely<Database>, entityType: string, entityId: string | number) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', String(entityId))
    .orderBy('id')
    .execute();
}

/** A page of the whole log, newest first; `before` is the id to page on from. */
export function auditPage(db: Kysely<Database>, options: { limit: number; beforeId?: number; entityType?: string }) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(options.limit);
  if (options.beforeId !== undefined) query = query.where('id', '<', options.beforeId);
  if (options.entityType !== undefined) query = query.where('entity_type', '=', options.entityType);
  return query.execute();
}

/**
 * Blanks the free text staff typed (a refund's or a cancellation's reason) in the entries about
 * these entities, for a customer erased on request: the entries still say who did what and when.
 */
export async function eraseAuditFreeText(
  db: Kysely<Database>,
  entityType: string,
  entityIds: Array<string | number>,
  fields: readonly string[] = FREE_TEXT_FIELDS,
): Promise<void> {
  if (entityIds.length === 0) return;
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'before', 'after'])
    .where('entity_type', '=', entityType)
    .where('entity_id', 'in', entityIds.map(String))
    .execute();
  const blank = (json: string | null) => {
    if (json === null) return null;
    const value = JSON.parse(json) as Record<string, unknown>;
    for (const field of fields) if (field in value) value[field] = '[erased]';
    return JSON.stringify(value);
  };
  for (const row of rows) {
    await db
      .updateTable('audit_log')
      .set({ before: blank(row.before), after: blank(row.after) })
      .where('id', '=', row.id)
      .execute();
  }
}

const FREE_TEXT_FIELDS = ['reason', 'note'] as const;
