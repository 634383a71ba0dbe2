import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Stock, vouchers and delivery in the back office (docs/back-office.md#stock-vouchers-and-delivery):
 * each stock adjustment is kept (who, when, the delta, why, the level after); the stock page finds
 * low stock by an index; a voucher's uses are found by the code orders keep; a voucher code is
 * unique whatever its case, as the basket reads it.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';

  await db.schema
    .createTable('stock_adjustments')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('product_stock_id', 'integer', (c) => c.notNull().references('product_stocks.id').onDelete('cascade'))
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
    // As written at the time, like the audit log's.
    .addColumn('staff_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('at', 'varchar(40)', (c) => c.notNull())
    .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
    .addColumn('reason', 'varchar(20)', (c) => c.notNull().check(sql`reason in ('received', 'damaged', 'correction')`))
    .addColumn('note', 'varchar(500)')
    // The level the conditional update left, as it returned it.
    .addColumn('stock_after', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stock_adjustments_stock_idx')
    .on('stock_adjustments')
    .columns(['product_stock_id', 'id'])
    .execute();

  // The stock page's "low stock" filter, lowest first, at 100,000 products.
  await db.schema.createIndex('product_stocks_level_idx').on('product_stocks').columns(['stock', 'id']).execute();
  // A voucher's uses: the orders that name its code.
  await db.schema.createIndex('orders_voucher_code_idx').on('orders').column('voucher_code').execute();
  // The basket looks codes up upper-cased (src/server/basket/basket.service.ts), so two codes that
  // differ only in case would be one voucher to a shopper.
  await db.schema
    .createIndex('vouchers_code_upper_idx')
    .on('vouchers')
    .unique()
    .expression(sql`upper(code)`)
    .execute();
}
