import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database, OrderLineTable, OrderStatus, OrderTable, RefundDueReason } from '../db/schema.ts';

/** Orders' SQL. Writes take the caller's transaction. */

export type OrderRow = Selectable<OrderTable>;
export type OrderLineRow = Selectable<OrderLineTable>;

/** Takes `quantity` units if there are that many; false when there are not (never below 0). */
export async function takeStock(trx: Kysely<Database>, stockId: number, quantity: number): Promise<boolean> {
  const result = await trx
    .updateTable('product_stocks')
    .set((eb) => ({ stock: eb('stock', '-', quantity) }))
    .where('id', '=', stockId)
    .where('stock', '>=', quantity)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

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
export async function nextOrderNumber(trx: Kysely<Database>, dialect: Dialect): Promise<number> {
  if (dialect === 'postgres') {
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
    .where('status', 'in', ['pending_payment', 'payment_failed'])
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
export async function lockUnpaidOrderKeys(trx: Kysely<Database>, dialect: Dialect, keys: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtext(${`unpaid-orders ${key}`}))`.execute(trx);
  }
}

/** Unpaid orders still holding stock for an e-mail key or a client, and the units they hold. */
export async function unpaidHoldings(
  trx: Kysely<Database>,
  by: { emailKey: string } | { clientAddress: string },
  now: string,
): Promise<{ orders: number; units: number }> {
  const [column, value] =
    'emailKey' in by
      ? (['orders.email_key', by.emailKey] as const)
      : (['orders.client_address', by.clientAddress] as const);
  const row = await trx
    .selectFrom('orders')
    .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
    .select((eb) => [
      eb.fn.count<number | string>('orders.id').distinct().as('orders'),
      eb.fn.sum<number | string | null>('order_lines.quantity').as('units'),
    ])
    .where(column, '=', value)
    .where('orders.status', 'in', ['pending_payment', 'payment_failed'])
    .where('orders.reserved_until', '>', now)
    .executeTakeFirstOrThrow();
  return { orders: Number(row.orders), units: Number(row.units ?? 0) };
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
