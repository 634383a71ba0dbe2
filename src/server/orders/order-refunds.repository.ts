import type { Kysely } from 'kysely';
import type { Database, OrderRefundTable } from '../db/schema.ts';

/**
 * The refunds' own SQL: refunds, reversals and cancelled reversals recorded against an order, and
 * the refunds staff asked a provider for, pending until it answers. Only the lifecycle's refund
 * workflow (order-lifecycle.ts) writes them; payments report refunds to it as events.
 */

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

/** What a credit note is made from: the refund and the lines that came back into stock with it. */
export async function findRefundToCredit(db: Kysely<Database>, refundId: number) {
  const refund = await db.selectFrom('order_refunds').selectAll().where('id', '=', refundId).executeTakeFirstOrThrow();
  const returned = await db
    .selectFrom('order_refund_lines')
    .innerJoin('order_lines', 'order_lines.id', 'order_refund_lines.order_line_id')
    .select(['order_lines.title', 'order_lines.size_name', 'order_refund_lines.quantity'])
    .where('order_refund_lines.refund_id', '=', refundId)
    .orderBy('order_lines.id')
    .execute();
  return { refund, returned };
}
