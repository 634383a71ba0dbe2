import { awaitingPayment } from '../../contract/order-status.ts';
import { sql, type Kysely } from 'kysely';
import {
  jsonArrayFrom as postgresJsonArrayFrom,
  jsonObjectFrom as postgresJsonObjectFrom,
} from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom, jsonObjectFrom as sqliteJsonObjectFrom } from 'kysely/helpers/sqlite';
import { loadStockRows, stockRowsQuery } from '../catalog/catalog.repository.ts';
import { dialectOfHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import {
  holdingsFrom,
  paidOrderOfChain,
  unpaidHoldingsQuery,
  type UnpaidHolder,
  type UnpaidHoldings,
} from '../orders/orders.repository.ts';
import type { DeliveryMethodFact, StockFact, VoucherFact } from './pricing.ts';

/** The facts a basket is priced from. Takes a transaction or the database alike. */

const sqlNull = sql<null>`null`;

type StockRow = Awaited<ReturnType<typeof loadStockRows>>[number];

function stockFactOf(row: StockRow): StockFact {
  return {
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
    ...(row.made_to_order === 1 ? { madeToOrder: true } : {}),
  };
}

/** Stock entries by id; a draft product's are left out, as if they did not exist (docs/back-office.md#catalogue). */
export async function loadStockFacts(db: Kysely<Database>, ids: number[]): Promise<StockFact[]> {
  return (await loadStockRows(db, ids)).map(stockFactOf);
}

function deliveryMethodsQuery(db: Kysely<Database>, countryId: number) {
  return db
    .selectFrom('delivery_methods')
    .select(['id', 'name', 'rate', 'kind', 'min_items_total', 'max_items_total'])
    .where('country_id', '=', countryId)
    .where('active', '=', 1)
    .orderBy('sort_order')
    .orderBy('id');
}

type DeliveryMethodRow = Awaited<ReturnType<ReturnType<typeof deliveryMethodsQuery>['execute']>>[number];

function deliveryMethodFactOf(r: DeliveryMethodRow): DeliveryMethodFact {
  return {
    id: r.id,
    name: r.name,
    rate: r.rate,
    kind: r.kind,
    minItemsTotal: r.min_items_total,
    maxItemsTotal: r.max_items_total,
  };
}

export async function loadDeliveryMethods(db: Kysely<Database>, countryId: number): Promise<DeliveryMethodFact[]> {
  return (await deliveryMethodsQuery(db, countryId).execute()).map(deliveryMethodFactOf);
}

function vouchersQuery(db: Kysely<Database>, codes: string[]) {
  return db
    .selectFrom('vouchers')
    .select(['code', 'kind', 'amount', 'min_spend', 'valid_from', 'valid_to', 'usage_limit', 'times_used'])
    .where((eb) => (codes.length > 0 ? eb('code', 'in', codes) : eb.lit(false)))
    .where('active', '=', 1);
}

type VoucherRow = Awaited<ReturnType<ReturnType<typeof vouchersQuery>['execute']>>[number];

function voucherFactOf(r: VoucherRow): VoucherFact {
  return {
    code: r.code,
    kind: r.kind,
    amount: r.amount,
    minSpend: r.min_spend,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    usageLimit: r.usage_limit,
    timesUsed: r.times_used,
  };
}

export async function loadVouchers(db: Kysely<Database>, codes: string[]): Promise<VoucherFact[]> {
  if (codes.length === 0) return [];
  return (await vouchersQuery(db, codes).execute()).map(voucherFactOf);
}

function countriesQuery(db: Kysely<Database>) {
  return db.selectFrom('countries').select(['id', 'name']);
}

export async function loadCountryNames(db: Kysely<Database>): Promise<Map<number, string>> {
  const rows = await countriesQuery(db).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

function titlesQuery(db: Kysely<Database>) {
  return db.selectFrom('titles').select('id');
}

/** The ids of the titles a shopper may choose (Mr, Ms, ...). */
export async function loadTitleIds(db: Kysely<Database>): Promise<Set<number>> {
  return new Set((await titlesQuery(db).execute()).map((row) => row.id));
}

function heldByOrderQuery(db: Kysely<Database>, orderCode: string | undefined, now: string) {
  return db
    .selectFrom('order_lines')
    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
    .select(['order_lines.product_stock_id', 'order_lines.quantity'])
    .where((eb) => (orderCode ? eb('orders.order_code', '=', orderCode) : eb.lit(false)))
    .where('orders.status', 'in', awaitingPayment)
    .where('orders.reserved_until', '>', now);
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
  const rows = await heldByOrderQuery(db, orderCode, now).execute();
  return rows.map((row) => ({ productStockId: row.product_stock_id, quantity: row.quantity }));
}

/**
 * The number of the order under `orderCode` if it has been paid, or of an order it replaced that
 * was paid after all: a basket restored from it (BACK TO CART after a declined card) whose order was
 * then paid elsewhere is not to be bought again.
 */
export async function loadPaidOrderNumber(db: Kysely<Database>, orderCode: string): Promise<number | undefined> {
  const order = await db
    .selectFrom('orders')
    .select(['status', 'order_number', 'replaces_order_id'])
    .where('order_code', '=', orderCode)
    .executeTakeFirst();
  return order && paidOrderOfChain(db, order);
}

/** Everything pricing reads, as the loaders above answer it. */
export interface PricingFactRows {
  stocks: StockFact[];
  deliveryMethods: DeliveryMethodFact[];
  vouchers: VoucherFact[];
  countryNames: Map<number, string>;
  titleIds: Set<number>;
  held: Array<{ productStockId: number; quantity: number }>;
  /** The buyer's unpaid orders and units, when asked for (a commit's limits). */
  holdings?: UnpaidHoldings;
}

/**
 * All the facts pricing reads, in one statement: a commit reads them inside its transaction,
 * where each statement is one more wait for the database while its locks are held
 * (docs/decisions/0018-checkout-in-fixed-round-trips.md). Each part is the query its loader above
 * sends, gathered as a JSON array.
 */
export async function loadPricingFactsAtOnce(
  db: Kysely<Database>,
  wanted: {
    stockIds: number[];
    countryId: number;
    voucherCodes: string[];
    orderCode: string | undefined;
    now: string;
    /** Whose unpaid orders to count with the facts (orders.repository.ts unpaidHoldingsQuery). */
    holdingsOf?: UnpaidHolder;
  },
): Promise<PricingFactRows> {
  const postgres = dialectOfHandle(db) === 'postgres';
  const jsonArrayFrom = postgres ? postgresJsonArrayFrom : sqliteJsonArrayFrom;
  const jsonObjectFrom = postgres ? postgresJsonObjectFrom : sqliteJsonObjectFrom;
  const { holdingsOf } = wanted;
  const row = await db
    .selectNoFrom([
      jsonArrayFrom(stockRowsQuery(db, wanted.stockIds)).as('stocks'),
      jsonArrayFrom(deliveryMethodsQuery(db, wanted.countryId)).as('deliveryMethods'),
      jsonArrayFrom(vouchersQuery(db, wanted.voucherCodes)).as('vouchers'),
      jsonArrayFrom(countriesQuery(db)).as('countries'),
      jsonArrayFrom(titlesQuery(db)).as('titles'),
      jsonArrayFrom(heldByOrderQuery(db, wanted.orderCode, wanted.now)).as('held'),
      (holdingsOf ? jsonObjectFrom(unpaidHoldingsQuery(db, holdingsOf, wanted.now)) : sqlNull).as('holdings'),
    ])
    .executeTakeFirstOrThrow();
  // PostgreSQL's driver parses JSON; SQLite answers it as text.
  const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  const rows = <T>(value: T[] | string): T[] => parsed(value);
  return {
    stocks: rows(row.stocks as StockRow[] | string).map(stockFactOf),
    deliveryMethods: rows(row.deliveryMethods as DeliveryMethodRow[] | string).map(deliveryMethodFactOf),
    vouchers: rows(row.vouchers as VoucherRow[] | string).map(voucherFactOf),
    countryNames: new Map(
      rows(row.countries as Array<{ id: number; name: string }> | string).map((r) => [r.id, r.name]),
    ),
    titleIds: new Set(rows(row.titles as Array<{ id: number }> | string).map((r) => r.id)),
    held: rows(row.held as Array<{ product_stock_id: number; quantity: number }> | string).map((r) => ({
      productStockId: r.product_stock_id,
      quantity: r.quantity,
    })),
    ...(holdingsOf && row.holdings
      ? {
          holdings: holdingsFrom(parsed(row.holdings as Parameters<typeof holdingsFrom>[0] | string), holdingsOf),
        }
      : {}),
  };
}
