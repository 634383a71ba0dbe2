import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Flexible dispatch (docs/rules.md#orders-and-stock): a fulfilment is some units of some lines of
 * an order, sent in one or more tracked parcels (carrier and tracking number each) or untracked
 * (a named service: Royal Mail 1st or 2nd Class). Each order line counts the units dispatched so
 * far, so a dispatch is one conditional update per line and two staff cannot send more than the
 * line has. Orders dispatched before this change get one fulfilment of all their lines (less the
 * units refunds put back), with the carrier and tracking number kept on the order.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .alterTable('order_lines')
    .addColumn('dispatched', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('fulfilments')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('method', 'varchar(20)', (c) => c.notNull().check(sql`method in ('tracked', 'untracked')`))
    /** For an untracked fulfilment, the service it went by: 'Royal Mail 1st Class'. */
    .addColumn('service', 'varchar(60)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    /** Who dispatched it; null for those made before this change. */
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
    .addColumn('staff_email', 'varchar(255)')
    .execute();
  await db.schema.createIndex('fulfilments_order_id').on('fulfilments').column('order_id').execute();
  await db.schema
    .createTable('fulfilment_lines')
    .addColumn('fulfilment_id', 'integer', (c) => c.notNull().references('fulfilments.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint('fulfilment_lines_pk', ['fulfilment_id', 'order_line_id'])
    .execute();
  await db.schema
    .createIndex('fulfilment_lines_order_line_id')
    .on('fulfilment_lines')
    .column('order_line_id')
    .execute();
  await db.schema
    .createTable('fulfilment_parcels')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('fulfilment_id', 'integer', (c) => c.notNull().references('fulfilments.id'))
    .addColumn('carrier', 'varchar(60)', (c) => c.notNull())
    .addColumn('tracking_number', 'varchar(60)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fulfilment_parcels_fulfilment_id')
    .on('fulfilment_parcels')
    .column('fulfilment_id')
    .execute();
  await backfillFulfilments(db);
}

/**
 * One fulfilment for each order dispatched before fulfilments existed (one without any), of all
 * its lines less the units refunds put back, in the parcel its carrier and tracking number name
 * (untracked, service 'Not recorded', when it had none). Exported for its test.
 */
export async function backfillFulfilments(db: Kysely<any>): Promise<void> {
  const dispatched = await db
    .selectFrom('orders')
    .select(['id', 'carrier', 'tracking_number', 'dispatched_at', 'updated_at'])
    .where('fulfilment', 'in', ['dispatched', 'delivered'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('fulfilments').select('fulfilments.id').whereRef('fulfilments.order_id', '=', 'orders.id')),
      ),
    )
    .orderBy('id')
    .execute();
  for (const order of dispatched) {
    const lines = await db
      .selectFrom('order_lines')
      .leftJoin('order_refund_lines', 'order_refund_lines.order_line_id', 'order_lines.id')
      .select(['order_lines.id', 'order_lines.quantity'])
      .select((eb) => eb.fn.coalesce(eb.fn.sum('order_refund_lines.quantity'), eb.val(0)).as('restocked'))
      .where('order_lines.order_id', '=', order.id)
      .groupBy(['order_lines.id', 'order_lines.quantity'])
      .execute();
    const sent = lines
      .map((line) => ({ id: line.id as number, quantity: Number(line.quantity) - Number(line.restocked) }))
      .filter((line) => line.quantity > 0);
    const tracked = order.carrier !== null && order.tracking_number !== null;
    const { id: fulfilmentId } = await db
      .insertInto('fulfilments')
      .values({
        order_id: order.id,
        method: tracked ? 'tracked' : 'untracked',
        service: tracked ? null : 'Not recorded',
        created_at: order.dispatched_at ?? order.updated_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (tracked)
      await db
        .insertInto('fulfilment_parcels')
        .values({ fulfilment_id: fulfilmentId, carrier: order.carrier, tracking_number: order.tracking_number })
        .execute();
    for (const line of sent) {
      await db
        .insertInto('fulfilment_lines')
        .values({ fulfilment_id: fulfilmentId, order_line_id: line.id, quantity: line.quantity })
        .execute();
      await db.updateTable('order_lines').set({ dispatched: line.quantity }).where('id', '=', line.id).execute();
    }
  }
}
