import type { Kysely } from 'kysely';
import type { Database, OrderRefundTable } from '../db/schema.ts';

/**
 * Payments' own SQL: the provider notifications recorded once each, and refunds. The order rows
 * they change are written through the order lifecycle (src/server/orders/order-lifecycle.ts).
 */

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

/**
 * Records a refund, reversal or cancelled reversal, answering its row's id; the order's refunded
 * total moves through the lifecycle's refund workflow (order-lifecycle.ts).
 */
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
): Promise<number> {
  const row = await trx
    .insertInto('order_refunds')
    .values({
      order_id: refund.orderId,
      kind: refund.kind,
      amount: refund.amount,
      provider: refund.provider,
      provider_reference: refund.reference.slice(0, 64),
      recorded_at: refund.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
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

/** Records the provider's own id for a handoff it created for an order (PayPal Checkout's order id). */
export async function insertProviderCheckout(
  db: Kysely<Database>,
  checkout: { orderId: number; provider: string; reference: string; at: string },
): Promise<void> {
  await db
    .insertInto('provider_checkouts')
    .values({
      order_id: checkout.orderId,
      provider: checkout.provider,
      reference: checkout.reference,
      created_at: checkout.at,
    })
    .execute();
}

/** The order a provider's handoff id belongs to, if it is one of ours. */
export async function findOrderIdByCheckout(
  db: Kysely<Database>,
  provider: string,
  reference: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('provider_checkouts')
    .select('order_id')
    .where('provider', '=', provider)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row?.order_id;
}

/**
 * A refund staff asked a provider to make, pending until it answers (its amount already
 * reserved); answers its row's id.
 */
export async function insertRefundRequest(
  trx: Kysely<Database>,
  request: { orderId: number; provider: string; amount: number; requestId: string; note: string; at: string },
): Promise<number> {
  const row = await trx
    .insertInto('refund_requests')
    .values({
      order_id: request.orderId,
      provider: request.provider,
      amount: request.amount,
      status: 'pending',
      request_id: request.requestId,
      note: request.note.slice(0, 500),
      created_at: request.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Refund requests still pending that were made before `createdBefore`, oldest first. */
/** Pending refund requests made before `createdBefore`, a batch at a time: those after id `afterId`. */
export function findUnconfirmedRefundRequests(
  db: Kysely<Database>,
  createdBefore: string,
  afterId: number,
  limit: number,
) {
  return db
    .selectFrom('refund_requests')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<', createdBefore)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function findRefundRequest(db: Kysely<Database>, requestId: string) {
  return db.selectFrom('refund_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/** Settles a pending refund request; false when it was already settled (by the other of answer and webhook). */
export async function settleRefundRequest(
  trx: Kysely<Database>,
  requestId: string,
  settlement: { status: 'refunded' | 'refused'; reference: string | null; at: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('refund_requests')
    .set({ status: settlement.status, provider_reference: settlement.reference, settled_at: settlement.at })
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The refund row a provider's reference was recorded under, for the units staff put back with it. */
export async function findRefundByReference(
  db: Kysely<Database>,
  orderId: number,
  reference: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('order_refunds')
    .select('id')
    .where('order_id', '=', orderId)
    .where('provider_reference', '=', reference)
    .executeTakeFirst();
  return row?.id;
}
