import type { Kysely } from 'kysely';
import type { Database, OrderRefundTable } from '../db/schema.ts';

/**
 * Payments' own SQL: the provider notifications recorded once each, and refunds. The order rows
 * they change are written through src/server/orders (orders.repository.ts).
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

/** Records a refund, reversal or cancelled reversal; the order's refunded total moves in orders.repository.ts. */
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
