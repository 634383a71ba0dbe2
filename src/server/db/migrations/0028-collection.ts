import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Click and collect (docs/rules.md#orders-and-stock): a delivery method is of the kind delivery
 * (sent to the customer) or collection (collected from the shop); every method so far is a
 * delivery. An order keeps the kind of the method it was placed with, as it keeps its name, so
 * changing a method later does not change how its orders are fulfilled. A collection order's
 * fulfilment goes to ready_for_collection and then collected, which the fulfilment's check
 * now allows.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const kind = (column: string) => sql`${sql.ref(column)} in ('delivery', 'collection')`;
  await db.schema
    .alterTable('delivery_methods')
    .addColumn('kind', 'varchar(20)', (c) => c.notNull().defaultTo('delivery').check(kind('kind')))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('delivery_kind', 'varchar(20)', (c) => c.notNull().defaultTo('delivery').check(kind('delivery_kind')))
    .execute();

  // partially_dispatched comes with dispatching some lines at a time (issue 35, item 2): allowed
  // now, so that change needs no second rebuild of the column on SQLite.
  const fulfilments = sql`('unfulfilled', 'partially_dispatched', 'dispatched', 'delivered', 'ready_for_collection', 'collected')`;
  if (dialect === 'postgres') {
    await sql`alter table orders drop constraint orders_fulfilment_check`.execute(db);
    await sql`alter table orders add constraint orders_fulfilment_check check (fulfilment in ${fulfilments})`.execute(
      db,
    );
    return;
  }
  // SQLite cannot change a column's check: a new column takes the old one's values and its name,
  // and the index on it is made again.
  await db.schema
    .alterTable('orders')
    .addColumn('fulfilment_new', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('unfulfilled')
        .check(sql`fulfilment_new in ${fulfilments}`),
    )
    .execute();
  await db
    .updateTable('orders')
    .set({ fulfilment_new: sql.ref('fulfilment') })
    .execute();
  await db.schema.dropIndex('orders_fulfilment_status_idx').execute();
  await db.schema.alterTable('orders').dropColumn('fulfilment').execute();
  await db.schema.alterTable('orders').renameColumn('fulfilment_new', 'fulfilment').execute();
  await db.schema
    .createIndex('orders_fulfilment_status_idx')
    .on('orders')
    .columns(['fulfilment', 'status', 'id'])
    .execute();
}
