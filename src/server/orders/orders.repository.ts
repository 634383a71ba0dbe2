import { awaitingPayment } from '../../contract/order-status.ts';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { dialectOfHandle } from '../db/database.ts';
import type { Database, OrderLineTable, OrderStatus, OrderTable, RefundDueReason } from '../db/schema.ts';

/** Orders' SQL. Writes take the caller's transaction. */

export type OrderRow = Selectable<OrderTable>;
export type OrderLineRow = Selectable<OrderLineTable>;

/** Units of stock entries to take or give back. */
export interface StockUnits {
  productStockId: number;
  quantity: number;
}

/**
 * Where a change to several stock entries gets its units: given lines, or an order's own lines.
 * Repeated entries are added up, since an UPDATE ... FROM changes each row once whatever the
 * number of rows it matched.
 */
type UnitsSource = { lines: readonly StockUnits[] } | { orderId: number };

function unitsTable(source: UnitsSource) {
  if ('orderId' in source) {
    return sql`select product_stock_id, sum(quantity) from order_lines where order_id = ${source.orderId} group by product_stock_id`;
  }
  const summed = new Map<number, number>();
  for (const line of source.lines)
    summed.set(line.productStockId, (summed.get(line.productStockId) ?? 0) + line.quantity);
  return sql`values ${sql.join(
    [...summed].map(([id, quantity]) => sql`(cast(${id} as integer), cast(${quantity} as integer))`),
  )}`;
}

/**
 * Changes several stock entries in one statement: each by +quantity (give back) or -quantity
 * (take, only where that many are left: never below 0). Answers the ids of the entries changed,
 * so a taker sees which it could not have. On PostgreSQL the rows are locked in id order first (the `locked`
 * step), so that two of these at once, each over several entries, cannot deadlock, whatever plan
 * the update gets (docs/decisions/0018-checkout-in-fixed-round-trips.md).
 */
async function changeStock(
  trx: Kysely<Database>,
  direction: 'take' | 'give back',
  source: UnitsSource,
): Promise<number[]> {
  if ('lines' in source && source.lines.length === 0) return [];
  const { rows } = await sql<{ id: number }>`
    with ${stockToChange(trx, source)}
    ${stockUpdate(direction)}`.execute(trx);
  return rows.map((row) => Number(row.id));
}

/** `wanted`, the units per entry, and `locked`, those entries locked in id order on PostgreSQL. */
function stockToChange(trx: Kysely<Database>, source: UnitsSource) {
  const lockInIdOrder = dialectOfHandle(trx) === 'postgres' ? sql`for update` : sql``;
  return sql`wanted(id, quantity) as (${unitsTable(source)}),
    locked as materialized (
      select product_stocks.id from product_stocks
      where product_stocks.id in (select id from wanted)
      order by product_stocks.id ${lockInIdOrder}
    )`;
}

/** The update of the `wanted` entries, answering the ids it changed. */
function stockUpdate(direction: 'take' | 'give back') {
  const change =
    direction === 'take' ? sql`product_stocks.stock - wanted.quantity` : sql`product_stocks.stock + wanted.quantity`;
  const enough = direction === 'take' ? sql`and product_stocks.stock >= wanted.quantity` : sql``;
  return sql`update product_stocks set stock = ${change}
    from wanted, locked
    where product_stocks.id = wanted.id and locked.id = wanted.id ${enough}
    returning product_stocks.id as id`;
}

/**
 * A new order's stock and its voucher's use, taken last in its commit (docs/decisions/0018-checkout-in-fixed-round-trips.md):
 * a popular size's row, or a sale voucher's, is locked from here to the commit, so nothing else is
 * sent in between. On PostgreSQL both are one statement, the voucher's update a CTE beside the
 * stock's; SQLite, which has no updates in a WITH and no round trips, sends two. False when a line
 * ran out or the voucher is used up: the caller rolls back.
 */
export async function takeStockAndVoucher(
  trx: Kysely<Database>,
  lines: readonly StockUnits[],
  voucherCode: string | null,
): Promise<boolean> {
  const entries = new Set(lines.map((line) => line.productStockId)).size;
  if (dialectOfHandle(trx) !== 'postgres') {
    if ((await takeStockOfLines(trx, lines)).length !== entries) return false;
    return voucherCode === null || (await useVoucher(trx, voucherCode));
  }
  const used =
    voucherCode === null
      ? sql`select 1`
      : sql`update vouchers set times_used = times_used + 1
          where code = ${voucherCode} and (usage_limit is null or times_used < usage_limit)
          returning 1`;
  const { rows } = await sql<{ taken: string; used: string }>`
    with ${stockToChange(trx, { lines })},
    taken as (${stockUpdate('take')}),
    used as (${used})
    select (select count(*) from taken) as taken, (select count(*) from used) as used`.execute(trx);
  return Number(rows[0]?.taken) === entries && Number(rows[0]?.used) === 1;
}

/**
 * Takes the lines' units, each only if there are that many (never below 0), in one statement.
 * Answers the ids of the entries taken: when fewer than asked, the caller rolls back or gives
 * those back.
 */
export function takeStockOfLines(trx: Kysely<Database>, lines: readonly StockUnits[]): Promise<number[]> {
  return changeStock(trx, 'take', { lines });
}

/** Gives the lines' units back, in one statement. */
export async function returnStockOfLines(trx: Kysely<Database>, lines: readonly StockUnits[]): Promise<void> {
  await changeStock(trx, 'give back', { lines });
}

/** Gives all of an order's units back, in one statement, without reading its lines first. */
export async function returnOrderStock(trx: Kysely<Database>, orderId: number): Promise<void> {
  await changeStock(trx, 'give back', { orderId });
}

/** Gives one entry's units back (a refund putting chosen units back in stock). */
export async function returnStock(trx: Kysely<Database>, stockId: number, quantity: number): Promise<void> {
  await trx
    .updateTable('product_stocks')
    .set((eb) => ({ stock: eb('stock', '+', quantity) }))
    .where('id', '=', stockId)
    .execute();
}

/** Counts one use of a voucher if its limit allows; false when it is used up. */
export async function useVoucher(trx: Kysely<Database>, code: string): Promise<boolean> {
  const result = await trx
    .updateTable('vouchers')
    .set((eb) => ({ times_used: eb('times_used', '+', 1) }))
    .where('code', '=', code)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('times_used', '<', eb.ref('usage_limit'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The next order number: PostgreSQL's sequence, or SQLite's counter row (migration 0006). */
export async function nextOrderNumber(trx: Kysely<Database>): Promise<number> {
  if (dialectOfHandle(trx) === 'postgres') {
    const { rows } = await sql<{ value: string }>`select nextval('order_number_seq') as value`.execute(trx);
    return Number(rows[0]?.value);
  }
  const row = await trx
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'order_number')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/**
 * Numbers a new order and writes it with its lines; answers its number. On PostgreSQL one
 * statement: the number from the sequence and the lines' insert in a CTE with the order's, one wait
 * for the database inside the commit (docs/decisions/0018-checkout-in-fixed-round-trips.md). SQLite,
 * in process, takes its counter row and sends the two inserts.
 */
export async function insertNewOrder(
  trx: Kysely<Database>,
  order: Omit<Insertable<OrderTable>, 'order_number'>,
  lines: Array<Omit<Insertable<OrderLineTable>, 'order_id'>>,
): Promise<number> {
  if (dialectOfHandle(trx) !== 'postgres') {
    const orderNumber = await nextOrderNumber(trx);
    await insertOrder(trx, { ...order, order_number: orderNumber }, lines);
    return orderNumber;
  }
  const row = await trx
    .with('new_order', (db) =>
      db
        .insertInto('orders')
        .values({ ...order, order_number: sql<number>`nextval('order_number_seq')` })
        .returning(['id', 'order_number']),
    )
    .insertInto('order_lines')
    .values(lines.map((line) => ({ ...line, order_id: (eb) => eb.selectFrom('new_order').select('id') })))
    .returning((eb) => eb.selectFrom('new_order').select('order_number').as('order_number'))
    .executeTakeFirstOrThrow();
  return Number(row.order_number);
}

export async function insertOrder(
  trx: Kysely<Database>,
  order: Insertable<OrderTable>,
  lines: Array<Omit<Insertable<OrderLineTable>, 'order_id'>>,
): Promise<number> {
  const { id } = await trx.insertInto('orders').values(order).returning('id').executeTakeFirstOrThrow();
  await trx
    .insertInto('order_lines')
    .values(lines.map((line) => ({ ...line, order_id: id })))
    .execute();
  return id;
}

export function findOrderByCode(db: Kysely<Database>, code: string) {
  return db.selectFrom('orders').selectAll().where('order_code', '=', code).executeTakeFirst();
}

/** How far back a chain of replacements is followed: far beyond any a shopper makes in its time limit. */
const MAX_CHAIN = 50;

/**
 * The number of the paid order in this order's chain of replacements, undefined when none is paid.
 * BACK TO CART commits a restored basket in place of its unpaid order, and either may still be paid:
 * the order replaced through a payment page already open elsewhere, or the one replacing it in
 * another tab. So the chain is followed both ways: to the orders this one replaced, one before
 * another, and to the order that replaced it (an order is replaced at most once: it is cancelled then).
 */
export async function paidOrderOfChain(
  db: Kysely<Database>,
  order: Pick<OrderRow, 'status' | 'order_number' | 'replaces_order_id'> & { id?: number },
): Promise<number | undefined> {
  type Link = Pick<OrderRow, 'id' | 'status' | 'order_number' | 'replaces_order_id'>;
  const columns = ['id', 'status', 'order_number', 'replaces_order_id'] as const;
  let back: Pick<OrderRow, 'status' | 'order_number' | 'replaces_order_id'> | undefined = order;
  for (let step = 0; back && step < MAX_CHAIN; step += 1) {
    if (back.status === 'paid') return back.order_number;
    if (back.replaces_order_id === null) break;
    back = await db.selectFrom('orders').select(columns).where('id', '=', back.replaces_order_id).executeTakeFirst();
  }
  let onward: Link | undefined;
  let from = order.id;
  for (let step = 0; from !== undefined && step < MAX_CHAIN; step += 1) {
    onward = await db.selectFrom('orders').select(columns).where('replaces_order_id', '=', from).executeTakeFirst();
    if (!onward) break;
    if (onward.status === 'paid') return onward.order_number;
    from = onward.id;
  }
  return undefined;
}

export function findOrderById(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

export function findOrderByNumber(db: Kysely<Database>, orderNumber: number) {
  return db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
}

export function findOrderLines(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('order_lines').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

/** Moves an order from one of `from` to `to`; false when another instance got there first. */
export async function changeStatus(
  trx: Kysely<Database>,
  orderId: number,
  from: readonly OrderStatus[],
  to: OrderStatus,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ status: to, updated_at: now })
    .where('id', '=', orderId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findExpiredReservations(db: Kysely<Database>, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('status', 'in', awaitingPayment)
    .where('reserved_until', '<', now)
    .orderBy('reserved_until')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Gives back one use of a voucher, when the unpaid order that used it expires or is replaced. */
export async function releaseVoucher(trx: Kysely<Database>, code: string): Promise<void> {
  await trx
    .updateTable('vouchers')
    .set((eb) => ({ times_used: eb('times_used', '-', 1) }))
    .where('code', '=', code)
    .where('times_used', '>', 0)
    .execute();
}

export async function findOrderVoucher(db: Kysely<Database>, orderId: number): Promise<string | null> {
  const row = await db.selectFrom('orders').select('voucher_code').where('id', '=', orderId).executeTakeFirst();
  return row?.voucher_code ?? null;
}

/**
 * Makes concurrent commits for the same e-mail address or client wait for each other until the
 * transaction ends, so that counting their unpaid orders and adding one cannot interleave. SQLite
 * has one writer at a time already (BEGIN IMMEDIATE). Keys are taken in one order, against deadlock.
 */
export async function lockUnpaidOrderKeys(trx: Kysely<Database>, keys: string[]): Promise<void> {
  if (dialectOfHandle(trx) !== 'postgres') return;
  // One statement: PostgreSQL evaluates a select list left to right, so the keys are still taken in order.
  const locks = [...new Set(keys)].sort().map((key) => sql`pg_advisory_xact_lock(hashtext(${`unpaid-orders ${key}`}))`);
  await sql`select ${sql.join(locks)}`.execute(trx);
}

export interface Holdings {
  orders: number;
  units: number;
}

/** Who a commit's unpaid-order limits count for: its e-mail key, and its client when known. */
export interface UnpaidHolder {
  emailKey: string;
  clientAddress: string | undefined;
}

export type UnpaidHoldings = { byEmail: Holdings; byClient: Holdings | undefined };

/**
 * Unpaid orders still holding stock for an e-mail key and for a client (when known), and the units
 * they hold: both counts in one query, which a commit reads with its pricing facts
 * (basket.repository.ts loadPricingFactsAtOnce) after taking the buyer's locks.
 */
export function unpaidHoldingsQuery(trx: Kysely<Database>, who: UnpaidHolder, now: string) {
  const { emailKey, clientAddress } = who;
  return trx
    .selectFrom('orders')
    .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
    .select((eb) => {
      const byEmail = eb('orders.email_key', '=', emailKey);
      // No client: a condition no order meets, so its counts are 0 and unused.
      const byClient = clientAddress === undefined ? eb.lit(false) : eb('orders.client_address', '=', clientAddress);
      return [
        eb.fn
          .count<number | string>(eb.case().when(byEmail).then(eb.ref('orders.id')).end())
          .distinct()
          .as('emailOrders'),
        eb.fn
          .sum<number | string | null>(eb.case().when(byEmail).then(eb.ref('order_lines.quantity')).end())
          .as('emailUnits'),
        eb.fn
          .count<number | string>(eb.case().when(byClient).then(eb.ref('orders.id')).end())
          .distinct()
          .as('clientOrders'),
        eb.fn
          .sum<number | string | null>(eb.case().when(byClient).then(eb.ref('order_lines.quantity')).end())
          .as('clientUnits'),
      ];
    })
    .where((eb) =>
      clientAddress === undefined
        ? eb('orders.email_key', '=', emailKey)
        : eb.or([eb('orders.email_key', '=', emailKey), eb('orders.client_address', '=', clientAddress)]),
    )
    .where('orders.status', 'in', awaitingPayment)
    .where('orders.reserved_until', '>', now);
}

/** The counts unpaidHoldingsQuery answered, as numbers (the databases answer counts as text or numbers). */
export function holdingsFrom(
  row: {
    emailOrders: number | string;
    emailUnits: number | string | null;
    clientOrders: number | string;
    clientUnits: number | string | null;
  },
  who: UnpaidHolder,
): UnpaidHoldings {
  return {
    byEmail: { orders: Number(row.emailOrders), units: Number(row.emailUnits ?? 0) },
    byClient:
      who.clientAddress === undefined
        ? undefined
        : { orders: Number(row.clientOrders), units: Number(row.clientUnits ?? 0) },
  };
}

export async function transactionUsedByOtherOrder(
  db: Kysely<Database>,
  transactionId: string,
  orderId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('transaction_id', '=', transactionId)
    .where('id', '<>', orderId)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setPaymentResult(
  db: Kysely<Database>,
  orderId: number,
  fromStatuses: readonly OrderStatus[],
  result: {
    status: OrderStatus;
    provider: string;
    providerStatus: string;
    transactionId?: string | null;
    authCode?: string | null;
    paidAt?: string | null;
    note?: string | null;
    at: string;
  },
): Promise<boolean> {
  const updated = await db
    .updateTable('orders')
    .set({
      status: result.status,
      payment_provider: result.provider,
      payment_status: result.providerStatus.slice(0, 30),
      ...(result.transactionId !== undefined ? { transaction_id: result.transactionId?.slice(0, 64) ?? null } : {}),
      ...(result.authCode !== undefined ? { auth_code: result.authCode?.slice(0, 40) ?? null } : {}),
      ...(result.paidAt !== undefined ? { paid_at: result.paidAt } : {}),
      ...(result.note !== undefined ? { payment_note: result.note } : {}),
      updated_at: result.at,
    })
    .where('id', '=', orderId)
    .where('status', 'in', fromStatuses)
    // An order staff cancelled keeps that status whatever the provider reports.
    .where('staff_cancelled_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function setProviderStatus(
  db: Kysely<Database>,
  orderId: number,
  provider: string,
  providerStatus: string,
  at: string,
) {
  await db
    .updateTable('orders')
    .set({ payment_provider: provider, payment_status: providerStatus.slice(0, 30), updated_at: at })
    .where('id', '=', orderId)
    .execute();
}

/**
 * Moves a paid order's refunded total by `change` pence as the provider reported it (a refund or
 * reversal adds, a cancelled reversal takes away): the money has already moved, so no condition.
 */
export async function moveRefundedTotal(
  trx: Kysely<Database>,
  orderId: number,
  change: number,
  at: string,
): Promise<void> {
  await trx
    .updateTable('orders')
    .set((eb) => ({ refunded_total: eb('refunded_total', '+', change), updated_at: at }))
    .where('id', '=', orderId)
    .execute();
}

/** Notes whether the order's units are taken from stock on its account (see migration 0011). */
export async function setHoldsStock(trx: Kysely<Database>, orderId: number, holds: boolean): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ holds_stock: holds ? 1 : 0 })
    .where('id', '=', orderId)
    .execute();
}

/** Notes that staff cancelled the order (not the shopper's own replacement). */
export async function setStaffCancelled(trx: Kysely<Database>, orderId: number, at: string): Promise<void> {
  await trx.updateTable('orders').set({ staff_cancelled_at: at }).where('id', '=', orderId).execute();
}

/** Sets the note staff see about an order's payment. */
export async function setPaymentNote(trx: Kysely<Database>, orderId: number, note: string, at: string): Promise<void> {
  await trx.updateTable('orders').set({ payment_note: note, updated_at: at }).where('id', '=', orderId).execute();
}

/**
 * Claims an order for capturing one provider order (`reference`), in one conditional update: only
 * while it is in one of `from`, and not claimed for another reference since `staleBefore`. Of two
 * claims at once for different references exactly one changes the row (on PostgreSQL the second
 * waits for the first and then finds the claim taken). Claiming again for the same reference
 * succeeds: its capture is idempotent.
 */
export async function setCaptureClaim(
  db: Kysely<Database>,
  orderId: number,
  claim: { reference: string; from: readonly OrderStatus[]; at: string; staleBefore: string },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ capture_claim: claim.reference, capture_claimed_at: claim.at })
    .where('id', '=', orderId)
    .where('status', 'in', claim.from)
    .where('staff_cancelled_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('capture_claim', 'is', null),
        eb('capture_claim', '=', claim.reference),
        eb('capture_claimed_at', '<', claim.staleBefore),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives up a claim to capture (its capture was not made), if it is still this reference's. */
export async function releaseCapture(db: Kysely<Database>, orderId: number, reference: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ capture_claim: null, capture_claimed_at: null })
    .where('id', '=', orderId)
    .where('capture_claim', '=', reference)
    .execute();
}

/** A payment the order should not keep, recorded for staff to send back. */
export async function insertPaymentToRefund(
  trx: Kysely<Database>,
  payment: {
    orderId: number;
    provider: string;
    reference: string;
    amount: number;
    reason: RefundDueReason;
    at: string;
  },
): Promise<void> {
  await trx
    .insertInto('payments_to_refund')
    .values({
      order_id: payment.orderId,
      provider: payment.provider,
      reference: payment.reference.slice(0, 64),
      amount: payment.amount,
      reason: payment.reason,
      received_at: payment.at,
    })
    .execute();
}

/**
 * What an invoice is made from: the order and its lines. With `lock`, the order's row is taken
 * (PostgreSQL; a SQLite transaction is already alone): of two asking at once for the invoice of an
 * order paid before invoices existed, the second then finds the first's instead of failing on it.
 */
export async function findOrderToInvoice(db: Kysely<Database>, orderId: number, options: { lock?: boolean } = {}) {
  let query = db.selectFrom('orders').selectAll().where('id', '=', orderId);
  if (options.lock && dialectOfHandle(db) === 'postgres') query = query.forUpdate();
  const order = await query.executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('order_lines')
    .select(['id', 'title', 'size_name', 'unit_price', 'quantity', 'line_total'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return { order, lines };
}

/** An order's id and link version by its number, for its order page link (order-links.ts). */
export function findOrderLinkVersion(db: Kysely<Database>, orderNumber: number) {
  return db
    .selectFrom('orders')
    .select(['id', 'link_version'])
    .where('order_number', '=', orderNumber)
    .executeTakeFirst();
}

/**
 * Revokes every link to the order's page made so far (order-links.ts): its link version goes up by
 * one, in one statement, so two staff revoking at once each raise it. Answers the new version.
 */
export async function raiseOrderLinkVersion(trx: Kysely<Database>, orderId: number, now: string): Promise<number> {
  await trx
    .updateTable('orders')
    .set((eb) => ({ link_version: eb('link_version', '+', 1), updated_at: now }))
    .where('id', '=', orderId)
    .execute();
  const row = await trx.selectFrom('orders').select('link_version').where('id', '=', orderId).executeTakeFirstOrThrow();
  return row.link_version;
}
