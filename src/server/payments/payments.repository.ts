import type { Kysely } from 'kysely';
import type { Database, OrderRefundTable, OrderStatus } from '../db/schema.ts';

/** Payments' SQL: orders by number or code, their lines, payment events and results. */

export function findOrderByNumber(db: Kysely<Database>, orderNumber: number) {
  return db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
}

export function findOrderByCode(db: Kysely<Database>, code: string) {
  return db.selectFrom('orders').selectAll().where('order_code', '=', code).executeTakeFirst();
}

export function orderLines(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('order_lines').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

export async function eventSeen(db: Kysely<Database>, key: string): Promise<boolean> {
  return (
    (await db.selectFrom('payment_events').select('id').where('event_key', '=', key).executeTakeFirst()) !== undefined
  );
}

export async function recordEvent(
  db: Kysely<Database>,
  event: {
    key: string;
    provider: string;
    orderId: number | null;
    providerStatus: string;
    outcome: string;
    body: string;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('payment_events')
    .values({
      event_key: event.key,
      provider: event.provider,
      order_id: event.orderId,
      provider_status: event.providerStatus.slice(0, 40),
      outcome: event.outcome.slice(0, 60),
      body: event.body.slice(0, 20_000),
      received_at: event.at,
    })
    .execute();
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
  fromStatuses: OrderStatus[],
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

/** Records a refund, reversal or cancelled reversal, and moves the order's refunded total with it. */
export async function recordRefund(
  trx: Kysely<Database>,
  refund: {
    orderId: number;
    kind: OrderRefundTable['kind'];
    amount: number;
    provider: string;
    reference: string;
    at: string;
  },
): Promise<void> {
  await trx
    .insertInto('order_refunds')
    .values({
      order_id: refund.orderId,
      kind: refund.kind,
      amount: refund.amount,
      provider: refund.provider,
      provider_reference: refund.reference.slice(0, 64),
      recorded_at: refund.at,
    })
    .execute();
  const change = refund.kind === 'reversal_cancelled' ? -refund.amount : refund.amount;
  await trx
    .updateTable('orders')
    .set((eb) => ({ refunded_total: eb('refunded_total', '+', change), updated_at: refund.at }))
    .where('id', '=', refund.orderId)
    .execute();
}

/** Keeps only the newest `keep` events whose key starts with `keyPrefix` (unverified notifications). */
export async function pruneEvents(db: Kysely<Database>, keyPrefix: string, keep: number): Promise<void> {
  const oldestKept = await db
    .selectFrom('payment_events')
    .select('id')
    .where('event_key', 'like', `${keyPrefix}%`)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(keep - 1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db
    .deleteFrom('payment_events')
    .where('event_key', 'like', `${keyPrefix}%`)
    .where('id', '<', oldestKept.id)
    .execute();
}
