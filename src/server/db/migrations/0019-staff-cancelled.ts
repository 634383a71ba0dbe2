import type { Kysely } from 'kysely';

/**
 * When staff cancelled an order (docs/rules.md#orders-and-stock). Both a staff cancel and the
 * shopper's own replacement leave an order `cancelled`, but only a replaced order is paid late: a
 * payment for an order staff cancelled (suspected fraud, a mistake) is kept for a refund instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('staff_cancelled_at', 'varchar(40)').execute();
}
