import { sql, type Kysely } from 'kysely';
import type { StockReason } from '../../contract/admin/stock.ts';
import type { Database } from '../db/schema.ts';

/** The stock page's SQL (docs/back-office.md#stock). Writes take the caller's transaction. */

export interface StockListFilter {
  q?: string | undefined;
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

/** `%` and `_` typed by staff are meant literally. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of sizes: in the order they were made (the primary key, so page 1 of 300,000 sizes reads
 * 50 rows), or lowest stock first by the (stock, id) index when only low stock is asked for.
 */
export async function listStock(db: Kysely<Database>, filter: StockListFilter) {
  let rows = stockRows(db);
  let count = db
    .selectFrom('product_stocks as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (filter.q) {
    const pattern = containing(filter.q);
    const matches = sql<boolean>`(lower(p.title) like ${pattern} escape '\\' or lower(s.size_name) like ${pattern} escape '\\')`;
    rows = rows.where(matches);
    count = count.where(matches);
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
 * checkout taking units at the same moment is never overwritten (DESIGN.md section 10). Answers the
 * level it left, or undefined when the size is unknown or the change would take it below 0.
 */
export async function adjustStockLevel(
  trx: Kysely<Database>,
  stockId: number,
  delta: number,
): Promise<number | undefined> {
  const row = await trx
    .updateTable('product_stocks')
    .set((eb) => ({ stock: eb('stock', '+', delta) }))
    .where('id', '=', stockId)
    .where((eb) => eb(eb('stock', '+', delta), '>=', 0))
    .returning('stock')
    .executeTakeFirst();
  return row?.stock;
}

export async function insertStockAdjustment(
  trx: Kysely<Database>,
  adjustment: {
    stockId: number;
    staff: { id: number; email: string };
    at: string;
    delta: number;
    reason: StockReason;
    note: string | null;
    stockAfter: number;
  },
): Promise<void> {
  await trx
    .insertInto('stock_adjustments')
    .values({
      product_stock_id: adjustment.stockId,
      staff_id: adjustment.staff.id,
      staff_email: adjustment.staff.email,
      at: adjustment.at,
      delta: adjustment.delta,
      reason: adjustment.reason,
      note: adjustment.note,
      stock_after: adjustment.stockAfter,
    })
    .execute();
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
