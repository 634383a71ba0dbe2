import type { Kysely } from 'kysely';

/**
 * The order a new one replaced (BACK TO CART commits a basket restored from an unpaid order in its
 * place; docs/rules.md#orders). The order replaced may still be paid, through a payment page
 * already open elsewhere: following the link back, the replacement is known to be paid for.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('replaces_order_id', 'integer', (column) => column.references('orders.id').onDelete('set null'))
    .execute();
}
