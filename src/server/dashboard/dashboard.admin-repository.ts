import { sql, type Kysely } from 'kysely';
import { awaitingPayment } from '../../contract/order-status.ts';
import type { Database } from '../db/schema.ts';
import { waitingToDispatch } from '../orders/orders.admin-repository.ts';

/**
 * The dashboard's SQL: paid orders and refunds by hour, top products, new and returning customers,
 * orders to dispatch or about to lapse, low stock.
 */

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

/**
 * Money sent back per UTC hour since `since`, by when it was recorded: refunds and reversals, less
 * reversals the provider undid. Sales are counted when paid and refunds when made, as a till does.
 */
export async function refundsByHour(db: Kysely<Database>, since: string) {
  const hour = sql<string>`substr(recorded_at, 1, 13)`;
  const rows = await db
    .selectFrom('order_refunds')
    .select([
      hour.as('hour'),
      sql<number | string>`sum(case kind when 'reversal_cancelled' then -amount else amount end)`.as('amount'),
    ])
    .where('recorded_at', '>=', since)
    .groupBy(hour)
    .execute();
  return rows.map((row) => ({ hour: row.hour, amount: Number(row.amount) }));
}

/** The products that sold the most (by money, then units) in orders paid from `since` to `until`. */
export async function topProductsBetween(db: Kysely<Database>, since: string, until: string, limit: number) {
  const rows = await db
    .selectFrom('order_lines')
    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
    .innerJoin('products', 'products.id', 'order_lines.product_id')
    .select([
      'order_lines.product_id as productId',
      'products.title',
      (eb) => eb.fn.sum<number | string>('order_lines.quantity').as('units'),
      (eb) => eb.fn.sum<number | string>('order_lines.line_total').as('gross'),
    ])
    .where('orders.status', '=', 'paid')
    .where('orders.paid_at', '>=', since)
    .where('orders.paid_at', '<=', until)
    .groupBy(['order_lines.product_id', 'products.title'])
    .orderBy('gross', 'desc')
    .orderBy('units', 'desc')
    .orderBy('order_lines.product_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, units: Number(row.units), gross: Number(row.gross) }));
}

/**
 * The people who paid for an order from `since` to `until`, by e-mail address in lower case (a
 * customer, as the customer list reads one): those with a paid order before it are returning, the
 * rest new.
 */
export async function customersBetween(db: Kysely<Database>, since: string, until: string) {
  const { all, returning } = await db
    .selectFrom('orders as o')
    .select([
      sql<number | string>`count(distinct lower(o.email))`.as('all'),
      sql<number | string>`count(distinct case when exists (
        select 1 from orders earlier
        where earlier.status = 'paid' and earlier.paid_at < ${since} and lower(earlier.email) = lower(o.email)
      ) then lower(o.email) end)`.as('returning'),
    ])
    .where('o.status', '=', 'paid')
    .where('o.paid_at', '>=', since)
    .where('o.paid_at', '<=', until)
    .executeTakeFirstOrThrow();
  return { new: Number(all) - Number(returning), returning: Number(returning) };
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

export async function lowStockCount(db: Kysely<Database>, threshold: number): Promise<number> {
  const { n } = await db
    .selectFrom('product_stocks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('stock', '<=', threshold)
    .executeTakeFirstOrThrow();
  return Number(n);
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
