import { awaitingPayment } from '../../contract/order-status.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The metrics' reads, run once per scrape, never per request. Each touches only the rows it counts
 * through an index: unsent and failed mail (mail_queue_due_idx) and unpaid orders
 * (orders_status_reserved_idx), so its cost follows the queue and the unpaid orders, not the
 * tables' size.
 */

export interface MailQueueState {
  /** Waiting to be sent or being sent now. */
  unsent: number;
  /** Unsent messages that have failed at least once and wait to be tried again. */
  retrying: number;
  /** Given up on after every attempt; kept with their last error. */
  failed: number;
  /** When the oldest unsent message was queued (ISO), or null when none is. */
  oldestUnsentAt: string | null;
}

export async function readMailQueueState(db: Kysely<Database>): Promise<MailQueueState> {
  const rows = await db
    .selectFrom('mail_queue')
    .select((eb) => [
      'status',
      eb.fn.countAll<number | string>().as('messages'),
      eb.fn.sum<number | string | null>(eb.case().when('attempts', '>', 0).then(1).else(0).end()).as('retried'),
      eb.fn.min('created_at').as('oldest'),
    ])
    .where('status', 'in', ['pending', 'sending', 'failed'])
    .groupBy('status')
    .execute();
  const state: MailQueueState = { unsent: 0, retrying: 0, failed: 0, oldestUnsentAt: null };
  for (const row of rows) {
    if (row.status === 'failed') {
      state.failed = Number(row.messages);
      continue;
    }
    state.unsent += Number(row.messages);
    if (row.status === 'pending') state.retrying += Number(row.retried ?? 0);
    if (row.oldest && (state.oldestUnsentAt === null || row.oldest < state.oldestUnsentAt))
      state.oldestUnsentAt = row.oldest;
  }
  return state;
}

/** Unpaid orders still holding their stock (their reservation running, or run out and not yet swept), and the units they hold. */
export async function readUnpaidHoldings(db: Kysely<Database>): Promise<{ orders: number; units: number }> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
    .select((eb) => [
      eb.fn.count<number | string>('orders.id').distinct().as('orders'),
      eb.fn.sum<number | string | null>('order_lines.quantity').as('units'),
    ])
    .where('orders.status', 'in', awaitingPayment)
    .where('orders.holds_stock', '=', 1)
    .executeTakeFirstOrThrow();
  return { orders: Number(row.orders), units: Number(row.units ?? 0) };
}
