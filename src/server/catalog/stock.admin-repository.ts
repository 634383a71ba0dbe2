import { sql, type Kysely } from 'kysely';
import { MAX_NEW_STOCK } from '../../contract/admin/catalogue.ts';
import type { StockReason } from '../../contract/admin/stock.ts';
import { dialectOfHandle, type Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** The stock page's SQL (docs/back-office.md#stock). Writes take the caller's transaction. */

export interface StockListFilter {
  /**
   * Only the sizes of these products (ids ascending): those the shop's search engine finds for the
   * page's words (docs/decisions/0026-one-search-engine.md).
   */
  productIds?: Int32Array | undefined;
  /** Only sizes at or below this many units, lowest first. */
  atMost?: number | undefined;
  limit: number;
  offset: number;
}

function stockRows(db: Kysely<Database>) {
  return db
    .selectFrom('product_stocks as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select([
      's.id as stockId',
      'p.id as productId',
      'p.title',
      'p.url_key as urlKey',
      's.size_name as sizeName',
      's.price',
      's.stock',
    ]);
}

/**
 * The sizes of these products. A broad word finds tens of thousands of products at 100,000, more
 * than a statement may bind one by one, so the ids go as one value: a JSON array SQLite reads
 * with json_each, an integer array on PostgreSQL.
 */
function ofProducts(dialect: Dialect, ids: Int32Array) {
  return dialect === 'sqlite'
    ? sql<boolean>`s.product_id in (select value from json_each(${JSON.stringify(Array.from(ids))}))`
    : sql<boolean>`s.product_id = any(${Array.from(ids)}::int[])`;
}

/**
 * A page of sizes: in the order they were made (the primary key), or lowest stock first by the
 * (stock, id) index when only low stock is asked for. Every size has its product (a foreign key),
 * so the count reads product_stocks alone.
 */
export async function listStock(db: Kysely<Database>, filter: StockListFilter) {
  const dialect = dialectOfHandle(db);
  let rows = stockRows(db);
  let count = db.selectFrom('product_stocks as s').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (filter.productIds) {
    if (filter.productIds.length === 0) return { rows: [], total: 0 };
    rows = rows.where(ofProducts(dialect, filter.productIds));
    count = count.where(ofProducts(dialect, filter.productIds));
  }
  if (filter.atMost !== undefined) {
    rows = rows.where('s.stock', '<=', filter.atMost).orderBy('s.stock');
    count = count.where('s.stock', '<=', filter.atMost);
  }
  const [page, total] = await Promise.all([
    rows.orderBy('s.id').limit(filter.limit).offset(filter.offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: page, total: Number(total.n) };
}

export function findStockRow(db: Kysely<Database>, stockId: number) {
  return stockRows(db).where('s.id', '=', stockId).executeTakeFirst();
}

/**
 * The adjustment itself: one conditional update, never a read-then-write of the level, so a
 * checkout taking units at the same moment is never overwritten (docs/back-office.md#stock). Answers the
 * level it left, or undefined when the size is unknown or the change would take it below 0 or above
 * `most` (by default the cap the product form and the CSV import hold a size to), both checked in
 * the same update, so two adjustments at once cannot pass either together.
 */
export async function adjustStockLevel(
  trx: Kysely<Database>,
  stockId: number,
  delta: number,
  most = MAX_NEW_STOCK,
): Promise<number | undefined> {
  const row = await trx
    .updateTable('product_stocks')
    .set((eb) => ({ stock: eb('stock', '+', delta) }))
    .where('id', '=', stockId)
    .where((eb) => eb.between(eb('stock', '+', delta), 0, most))
    .returning('stock')
    .executeTakeFirst();
  return row?.stock;
}

export interface StockAdjustmentRecord {
  stockId: number;
  staff: { id: number; email: string };
  at: string;
  delta: number;
  reason: StockReason;
  note: string | null;
  stockAfter: number;
}

export async function insertStockAdjustment(trx: Kysely<Database>, adjustment: StockAdjustmentRecord): Promise<void> {
  await insertStockAdjustments(trx, [adjustment]);
}

/** Many adjustments' history rows, 500 to a statement (a CSV import's corrections). */
export async function insertStockAdjustments(
  trx: Kysely<Database>,
  adjustments: readonly StockAdjustmentRecord[],
): Promise<void> {
  for (let start = 0; start < adjustments.length; start += 500) {
    await trx
      .insertInto('stock_adjustments')
      .values(
        adjustments.slice(start, start + 500).map((adjustment) => ({
          product_stock_id: adjustment.stockId,
          staff_id: adjustment.staff.id,
          staff_email: adjustment.staff.email,
          at: adjustment.at,
          delta: adjustment.delta,
          reason: adjustment.reason,
          note: adjustment.note,
          stock_after: adjustment.stockAfter,
        })),
      )
      .execute();
  }
}

/** A size's adjustments, newest first. */
export function stockAdjustmentsOf(db: Kysely<Database>, stockId: number, limit: number) {
  return db
    .selectFrom('stock_adjustments')
    .selectAll()
    .where('product_stock_id', '=', stockId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
