import { sql, type Kysely } from 'kysely';
import { awaitingPayment } from '../../contract/order-status.ts';
import type { Database } from '../db/schema.ts';
import { waitingToDispatch } from '../orders/orders.admin-repository.ts';

/** The dashboard's SQL: paid orders by hour, orders to dispatch or about to lapse, low stock. */

/**
 * Paid orders' count, gross and VAT per UTC hour since `since` (an ISO time). Hours, not days:
 * the UK day an hour belongs to changes with summer time, so the caller puts hours into days.
 */
export async function paidOrdersByHour(db: Kysely<Database>, since: string) {
  const hour = sql<string>`substr(paid_at, 1, 13)`;
  const rows = await db
    .selectFrom('orders')
    .select([
      hour.as('hour'),
      (eb) => eb.fn.countAll<number | string>().as('count'),
      (eb) => eb.fn.sum<number | string>('total_including_delivery').as('gross'),
      (eb) => eb.fn.sum<number | string>('total_vat').as('vat'),
    ])
    .where('status', '=', 'paid')
    .where('paid_at', '>=', since)
    .groupBy(hour)
    .execute();
  return rows.map((row) => ({
    hour: row.hour,
    count: Number(row.count),
    gross: Number(row.gross),
    vat: Number(row.vat),
  }));
}

/** The packer's list, as the order list's "to dispatch" filter and the packing slips read it. */
const toDispatch = (db: Kysely<Database>) => db.selectFrom('orders').where(waitingToDispatch);

export async function ordersWaitingToDispatch(db: Kysely<Database>, limit: number) {
  const { n } = await toDispatch(db)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  // Oldest order first: order ids rise with time, and the (fulfilment, status, id) index serves it.
  const oldest = await toDispatch(db).selectAll().orderBy('id').limit(limit).execute();
  return { count: Number(n), oldest };
}

export function unpaidOrdersEndingBefore(db: Kysely<Database>, now: string, until: string, limit: number) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('status', 'in', awaitingPayment)
    .where('reserved_until', '>', now)
    .where('reserved_until', '<=', until)
    .orderBy('reserved_until')
    .limit(limit)
    .execute();
}

export function lowStock(db: Kysely<Database>, threshold: number, limit: number) {
  return db
    .selectFrom('product_stocks')
    .innerJoin('products', 'products.id', 'product_stocks.product_id')
    .select([
      'product_stocks.id as stockId',
      'products.id as productId',
      'products.title',
      'product_stocks.size_name as sizeName',
      'product_stocks.stock',
    ])
    .where('product_stocks.stock', '<=', threshold)
    .orderBy('product_stocks.stock')
    .orderBy('product_stocks.id')
    .limit(limit)
    .execute();
}
