import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * One payment per order (docs/rules.md#payments).
 *
 * - `orders.capture_claim`: the PayPal Checkout order the shop is capturing for this order, and
 *   since when. The shop claims the order before it asks PayPal to capture, in one conditional
 *   update, so of two PayPal orders for one order (two handoffs, both approved) returning at once
 *   only one is captured. A claim left by a process that died is taken over after a few minutes.
 * - `payments_to_refund`: a payment the order should not keep, recorded with the provider's id and
 *   amount so staff can send it back: a second payment for an order already paid (a provider that
 *   takes the money on its own page cannot be stopped from taking it twice).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('orders').addColumn('capture_claim', 'varchar(64)').execute();
  await db.schema.alterTable('orders').addColumn('capture_claimed_at', 'varchar(40)').execute();
  await db.schema
    .createTable('payments_to_refund')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('reference', 'varchar(64)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(40)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_to_refund_order_idx').on('payments_to_refund').column('order_id').execute();
}
