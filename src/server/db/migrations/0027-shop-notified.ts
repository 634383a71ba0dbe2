import { sql, type Kysely } from 'kysely';

/**
 * When the shop was told of a paid order by e-mail (docs/back-office.md#orders): the orders paid
 * since the last message are claimed by this column, so each is told once, whichever instance
 * sends, and several paid within a minute come as one message. Orders paid before it count as told.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('shop_notified_at', 'varchar(40)').execute();
  await db
    .updateTable('orders')
    .set({ shop_notified_at: sql`coalesce(paid_at, created_at)` })
    .where('status', '=', 'paid')
    .execute();
  // Only the few paid orders not yet told: the index stays small however many orders there are.
  await db.schema
    .createIndex('orders_shop_to_notify')
    .on('orders')
    .column('id')
    .where(sql<boolean>`shop_notified_at is null and status = 'paid'`)
    .execute();
}
