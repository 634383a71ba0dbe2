import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Returns after dispatch (docs/rules.md#returns): a shopper asks to return some dispatched units
 * within 14 days of delivery (or of dispatch plus its delivery method's transit days when delivery
 * is not recorded); staff authorise or refuse it, receive the goods (units to restock and their
 * condition) and refund them through the one refund workflow. Made-to-order products cannot be
 * returned for a change of mind. Photos of damage are kept in the database, as product photos are
 * (docs/decisions/0011-product-photo-storage.md).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .alterTable('products')
    .addColumn('made_to_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Days a parcel takes to arrive, for a return window when its delivery was not recorded.
  await db.schema
    .alterTable('delivery_methods')
    .addColumn('transit_days', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(3)
        .check(sql`transit_days >= 0`),
    )
    .execute();
  await db.schema
    .createTable('returns')
    .addColumn('id', id, (c) => c.primaryKey())
    // The returns authorisation number shoppers see: RA-{order number}-{n}.
    .addColumn('ra_number', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('status', 'varchar(20)', (c) =>
      c.notNull().check(sql`status in ('requested', 'authorised', 'refused', 'received', 'refunded')`),
    )
    .addColumn('reason', 'varchar(30)', (c) =>
      c.notNull().check(sql`reason in ('changed_mind', 'faulty', 'damaged_in_transit', 'wrong_item')`),
    )
    .addColumn('note', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
    .addColumn('refusal_reason', 'varchar(2000)')
    .addColumn('requested_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('authorised_at', 'varchar(40)')
    .addColumn('refused_at', 'varchar(40)')
    .addColumn('received_at', 'varchar(40)')
    // 14 days after the goods came back: when the refund must have been made by.
    .addColumn('refund_due_at', 'varchar(40)')
    .addColumn('refunded_at', 'varchar(40)')
    .addColumn('refund_amount', 'integer')
    .addColumn('deduction', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`deduction >= 0`),
    )
    .addColumn('deduction_reason', 'varchar(2000)')
    .execute();
  await db.schema.createIndex('returns_order_id').on('returns').column('order_id').execute();
  await db.schema.createIndex('returns_status_due').on('returns').columns(['status', 'refund_due_at']).execute();
  await db.schema
    .createTable('return_lines')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('return_id', 'integer', (c) => c.notNull().references('returns.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    // At receipt: how many units go back into stock, and the state they came back in.
    .addColumn('restocked', 'integer', (c) => c.check(sql`restocked >= 0`))
    .addColumn('condition', 'varchar(20)', (c) =>
      c.check(sql`condition in ('as_new', 'opened', 'used', 'damaged', 'faulty')`),
    )
    .addUniqueConstraint('return_lines_one', ['return_id', 'order_line_id'])
    .execute();
  await db.schema.createIndex('return_lines_order_line_id').on('return_lines').column('order_line_id').execute();
  await db.schema
    .createTable('return_photos')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('return_id', 'integer', (c) => c.notNull().references('returns.id'))
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position between 1 and 3`))
    .addColumn('content_type', 'varchar(30)', (c) =>
      c.notNull().check(sql`content_type in ('image/jpeg', 'image/png', 'image/webp')`),
    )
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addUniqueConstraint('return_photos_one', ['return_id', 'position'])
    .execute();
}
