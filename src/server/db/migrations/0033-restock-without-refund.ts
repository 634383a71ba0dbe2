import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A return whose deduction for diminished value takes all its goods' price still puts back in stock
 * the units staff chose (docs/rules.md#returns). The units a refund puts back are recorded against
 * it (order_refund_lines), so that return is recorded as a refund of nothing: an order refund's
 * amount may now be 0 (no money moves and no credit note is issued for it).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table order_refunds drop constraint order_refunds_amount_check`.execute(db);
    await sql`alter table order_refunds add constraint order_refunds_amount_check check (amount >= 0)`.execute(db);
    return;
  }
  // SQLite cannot change a column's check: a new column takes the old one's values and its name
  // (as 0028-collection did for orders.fulfilment). No index uses the column.
  await db.schema
    .alterTable('order_refunds')
    .addColumn('amount_new', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`amount_new >= 0`),
    )
    .execute();
  await db
    .updateTable('order_refunds')
    .set({ amount_new: sql.ref('amount') })
    .execute();
  await db.schema.alterTable('order_refunds').dropColumn('amount').execute();
  await db.schema.alterTable('order_refunds').renameColumn('amount_new', 'amount').execute();
}
