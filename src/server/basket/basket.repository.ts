import type { Kysely } from 'kysely';
import { loadStockRows } from '../catalog/catalog.repository.ts';
import type { Database } from '../db/schema.ts';
import type { DeliveryMethodFact, StockFact, VoucherFact } from './pricing.ts';

/** The facts a basket is priced from. Takes a transaction or the database alike. */

/** Stock entries by id; a draft product's are left out, as if they did not exist (docs/back-office.md#catalogue). */
export async function loadStockFacts(db: Kysely<Database>, ids: number[]): Promise<StockFact[]> {
  const rows = await loadStockRows(db, ids);
  return rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    title: row.title,
    sizeName: row.size_name,
    urlKey: row.url_key,
    imageUrl: row.photo_url ?? row.image_url ?? '',
    price: row.price,
    priceWithoutDiscount: row.price_without_discount,
    priceReduction: row.price_reduction,
    stock: row.stock,
    available: row.status === 'published',
  }));
}

export async function loadDeliveryMethods(db: Kysely<Database>, countryId: number): Promise<DeliveryMethodFact[]> {
  const rows = await db
    .selectFrom('delivery_methods')
    .select(['id', 'name', 'rate', 'min_items_total', 'max_items_total'])
    .where('country_id', '=', countryId)
    .where('active', '=', 1)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    rate: r.rate,
    minItemsTotal: r.min_items_total,
    maxItemsTotal: r.max_items_total,
  }));
}

export async function loadVouchers(db: Kysely<Database>, codes: string[]): Promise<VoucherFact[]> {
  if (codes.length === 0) return [];
  const rows = await db.selectFrom('vouchers').selectAll().where('code', 'in', codes).where('active', '=', 1).execute();
  return rows.map((r) => ({
    code: r.code,
    kind: r.kind,
    amount: r.amount,
    minSpend: r.min_spend,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    usageLimit: r.usage_limit,
    timesUsed: r.times_used,
  }));
}

export async function loadCountryNames(db: Kysely<Database>): Promise<Map<number, string>> {
  const rows = await db.selectFrom('countries').select(['id', 'name']).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * What an unpaid order still holding its reservation holds, by stock entry: the basket restored
 * from it (BACK TO CART) may count those units as there, since committing it gives them back first.
 */
export async function loadHeldByOrder(
  db: Kysely<Database>,
  orderCode: string,
  now: string,
): Promise<Array<{ productStockId: number; quantity: number }>> {
  const rows = await db
    .selectFrom('order_lines')
    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
    .select(['order_lines.product_stock_id', 'order_lines.quantity'])
    .where('orders.order_code', '=', orderCode)
    .where('orders.status', 'in', ['pending_payment', 'payment_failed'])
    .where('orders.reserved_until', '>', now)
    .execute();
  return rows.map((row) => ({ productStockId: row.product_stock_id, quantity: row.quantity }));
}
