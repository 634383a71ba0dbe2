import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Shipping labels (issue 38, docs/back-office.md#shipping-labels): what a parcel weighs and measures,
 * which carrier service each delivery method is sent by, and each order's label bought from Royal
 * Mail Click & Drop.
 *
 * - A size or style has its weight in grams and either its own dimensions in millimetres or a
 *   packaging preset (a tabla box, a harmonium crate) that it is sent in; a preset's weight is the
 *   empty box's, added to the goods'.
 * - A delivery method names a carrier service (contract/admin/shipping.ts) and its package format.
 * - `shipping_labels`: one row per attempt to buy an order's label. At most one per order waits to
 *   be sent (creating or created): a partial unique index says so on both databases, so two members
 *   pressing "Make labels" at once cannot buy two. Once dispatched, a later parcel of the same
 *   order may have a label of its own. Our order number is Click & Drop's order
 *   reference, so a retry after a lost answer finds the order it already made.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';
  const positive = (column: string) => sql`${sql.ref(column)} is null or ${sql.ref(column)} > 0`;
  await db.schema
    .createTable('packagings')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('length_mm', 'integer', (c) => c.notNull().check(sql`length_mm > 0`))
    .addColumn('width_mm', 'integer', (c) => c.notNull().check(sql`width_mm > 0`))
    .addColumn('height_mm', 'integer', (c) => c.notNull().check(sql`height_mm > 0`))
    .addColumn('weight_grams', 'integer', (c) => c.notNull().check(sql`weight_grams >= 0`))
    .execute();
  await db.schema
    .createIndex('packagings_name_idx')
    .on('packagings')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  for (const column of ['weight_grams', 'length_mm', 'width_mm', 'height_mm']) {
    await db.schema
      .alterTable('product_stocks')
      .addColumn(column, 'integer', (c) => c.check(positive(column)))
      .execute();
  }
  await db.schema
    .alterTable('product_stocks')
    .addColumn('packaging_id', 'integer', (c) => c.references('packagings.id'))
    .execute();

  await db.schema.alterTable('delivery_methods').addColumn('carrier_service', 'varchar(40)').execute();
  await db.schema.alterTable('delivery_methods').addColumn('package_format', 'varchar(20)').execute();

  await db.schema
    .createTable('shipping_labels')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('status', 'varchar(20)', (c) =>
      c.notNull().check(sql`status in ('creating', 'created', 'failed', 'dispatched', 'cancelled')`),
    )
    .addColumn('service', 'varchar(40)', (c) => c.notNull())
    .addColumn('package_format', 'varchar(20)', (c) => c.notNull())
    .addColumn('weight_grams', 'integer', (c) => c.notNull())
    // Click & Drop's own identifier and the tracking number it gave, once it made the order.
    .addColumn('carrier_order_id', 'integer')
    .addColumn('tracking_number', 'varchar(40)')
    // Click & Drop's own words when it refused the order, shown to staff as they are.
    .addColumn('error', 'varchar(2000)')
    .addColumn('fulfilment_id', 'integer', (c) => c.references('fulfilments.id'))
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('staff_email', 'varchar(320)')
    .execute();
  await db.schema
    .createIndex('shipping_labels_live_idx')
    .on('shipping_labels')
    .column('order_id')
    .unique()
    .where(sql.ref('status'), 'in', ['creating', 'created'])
    .execute();
  await db.schema
    .createIndex('shipping_labels_status_idx')
    .on('shipping_labels')
    .columns(['status', 'order_id'])
    .execute();
}
