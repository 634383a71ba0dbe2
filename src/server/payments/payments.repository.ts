import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Payments' own SQL: the provider notifications recorded once each, and the providers' own ids
 * for their handoffs. The order rows and refunds they change are written through the order
 * lifecycle (src/server/orders/order-lifecycle.ts).
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
