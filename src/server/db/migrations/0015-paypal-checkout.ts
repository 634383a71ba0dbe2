import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PayPal Checkout and refunds through the providers (docs/rules.md#payments; ADR 0013).
 *
 * - `provider_checkouts`: the provider's own id for each handoff it created for an order (PayPal
 *   Checkout's order id), so a return or a webhook naming it finds our order, and only ours.
 * - `refund_requests`: a refund staff asked a provider to make. Its amount is reserved against the
 *   order's refunded_total before the provider is called, and given back if the provider refuses;
 *   `pending` while the provider has not answered.
 * - A provider's name may be longer than ten characters (`paypal-checkout`). SQLite does not hold
 *   varchar lengths; on PostgreSQL widening a varchar rewrites nothing.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';
  if (dialect === 'postgres') {
    await db.schema
      .alterTable('orders')
      .alterColumn('payment_provider', (c) => c.setDataType('varchar(20)'))
      .execute();
    await db.schema
      .alterTable('payment_events')
      .alterColumn('provider', (c) => c.setDataType('varchar(20)'))
      .execute();
  }
  await db.schema
    .createTable('provider_checkouts')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('reference', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addUniqueConstraint('provider_checkouts_reference_key', ['provider', 'reference'])
    .execute();
  await db.schema.createIndex('provider_checkouts_order_idx').on('provider_checkouts').column('order_id').execute();

  await db.schema
    .createTable('refund_requests')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('status', 'varchar(10)', (c) => c.notNull().check(sql`status in ('pending', 'refunded', 'refused')`))
    // Ours: the provider's idempotency key, and the reference its refund carries back to us.
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('provider_reference', 'varchar(64)')
    .addColumn('note', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('settled_at', 'varchar(40)')
    .execute();
  await db.schema.createIndex('refund_requests_order_idx').on('refund_requests').column('order_id').execute();
}
