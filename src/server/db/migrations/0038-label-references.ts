import { sql, type Kysely } from 'kysely';

/**
 * Each label's own reference in Click & Drop (issue 38, docs/decisions/0028-click-and-drop-unclear-points.md):
 * the order number and a random tail, chosen when the label is started. After a lost answer the
 * shop looks the order up by this reference, so it takes as its own only the order it made, never
 * one keyed into Click & Drop by hand (or left from an earlier label) under the bare order number.
 * Labels from before were sent under the bare order number, and keep it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('shipping_labels')
    .addColumn('carrier_reference', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update shipping_labels set carrier_reference = (
    select cast(o.order_number as varchar(40)) from orders o where o.id = shipping_labels.order_id
  )`.execute(db);
}
