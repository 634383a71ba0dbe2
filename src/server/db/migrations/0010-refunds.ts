import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Refunds and reversals (chargebacks) reported by the payment provider are recorded on the order
 * (docs/rules.md#payments): each one as a row, and their sum on the order, which stays `paid` (it was).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('refunded_total', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('order_refunds')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'varchar(20)', (c) =>
      c.notNull().check(sql`kind in ('refund', 'reversal', 'reversal_cancelled')`),
    )
    // Pence, positive: what went back to the customer (or, for a cancelled reversal, came back to us).
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('provider_reference', 'varchar(64)', (c) => c.notNull())
    .addColumn('recorded_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_refunds_order_idx').on('order_refunds').column('order_id').execute();
}
