import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The units a refund through a provider puts back in stock are held with its amount, before the
 * provider is asked (docs/rules.md#payments; ADR 0013): a row per order line of a refund request,
 * counted against what the line sold while the request is pending, and removed when the units go
 * back in stock (as `order_refund_lines` of the refund that was made). So refunds racing for the
 * last units are refused before any money moves, never after.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('refund_request_lines')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
    .addColumn('refund_request_id', 'integer', (c) => c.notNull().references('refund_requests.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .execute();
  await db.schema
    .createIndex('refund_request_lines_request_idx')
    .on('refund_request_lines')
    .column('refund_request_id')
    .execute();
  await db.schema
    .createIndex('refund_request_lines_line_idx')
    .on('refund_request_lines')
    .column('order_line_id')
    .execute();
}
