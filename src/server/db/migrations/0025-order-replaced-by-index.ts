import type { Kysely } from 'kysely';

/**
 * The order that replaced another, found by an index: a handoff, a capture claim and a restored
 * basket each follow the chain of replacements forward as well as back (paidOrderOfChain), which
 * without it read the whole orders table on the money path.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('orders_replaces_order_id').on('orders').column('replaces_order_id').execute();
}
