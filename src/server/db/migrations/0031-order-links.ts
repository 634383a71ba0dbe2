import type { Kysely } from 'kysely';

/**
 * The customer's order page (docs/rules.md#the-customers-order-page): an order's link is signed
 * with its link version, so staff revoke every link to an order made so far by raising it, and the
 * customer is sent a new one. Existing orders start at version 1.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('link_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
