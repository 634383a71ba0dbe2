import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The back office (docs/back-office.md): staff are not customers, so they have their own accounts,
 * single-use set-password links and sessions; every staff action is written to the audit log; and
 * a paid order moves on through dispatch and delivery. Fulfilment is a column of its own beside the
 * payment status (as most shop platforms keep them), so the payment status's check stays as it was.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';

  await db.schema
    .createTable('staff')
    .addColumn('id', autoId, (c) => c.primaryKey())
    // Stored lower-cased: one person, one account, whatever case they type.
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role', 'varchar(10)', (c) => c.notNull().check(sql`role in ('owner', 'staff')`))
    // Null until the person follows their set-password link: there is never a default password.
    .addColumn('password_hash', 'varchar(200)')
    .addColumn('totp_secret', 'varchar(64)')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    // The last TOTP time step accepted: a code seen once is never accepted again.
    .addColumn('totp_last_step', 'bigint')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('disabled_at', 'varchar(40)')
    .execute();

  await db.schema
    .createTable('staff_tokens')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(40)')
    .execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    // Idle expiry: each use moves it on; a session left alone ends sooner than a customer's.
    .addColumn('idle_until', 'varchar(40)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(40)')
    .execute();
  await db.schema.createIndex('staff_sessions_staff_idx').on('staff_sessions').column('staff_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
    // Kept as written at the time, so the log still says who after a staff account is renamed.
    .addColumn('staff_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('at', 'varchar(40)', (c) => c.notNull())
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('entity_type', 'varchar(30)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(40)', (c) => c.notNull())
    // JSON of the fields the action changed, before and after.
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity_type', 'entity_id']).execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();

  await db.schema
    .alterTable('orders')
    .addColumn('fulfilment', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('unfulfilled')
        .check(sql`fulfilment in ('unfulfilled', 'dispatched', 'delivered')`),
    )
    .execute();
  // Whether the order's units are out of stock on its account: not once an unpaid order was
  // released, nor when one paid late could not take them again. A refund restocks only those.
  await db.schema
    .alterTable('orders')
    .addColumn('holds_stock', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db
    .updateTable('orders')
    .set({ holds_stock: 0 })
    .where((eb) =>
      eb.or([eb('status', 'in', ['expired', 'cancelled']), eb('payment_note', 'like', '%could not be taken again%')]),
    )
    .execute();
  await db.schema.alterTable('orders').addColumn('carrier', 'varchar(60)').execute();
  await db.schema.alterTable('orders').addColumn('tracking_number', 'varchar(60)').execute();
  await db.schema.alterTable('orders').addColumn('dispatched_at', 'varchar(40)').execute();
  await db.schema.alterTable('orders').addColumn('delivered_at', 'varchar(40)').execute();
  // A customer erased on request (UK GDPR) keeps a row, emptied of everything personal, so the
  // orders that point at it still add up for the accounts.
  await db.schema.alterTable('customers').addColumn('erased_at', 'varchar(40)').execute();
  await db.schema
    .createIndex('customers_lastname_key_idx')
    .on('customers')
    .expression(sql`lower(lastname)`)
    .execute();
  await db.schema
    .createIndex('customers_email_lower_idx')
    .on('customers')
    .expression(sql`lower(email)`)
    .execute();

  // A refund staff record may put some of the order's units back in stock; each line says how many,
  // so no line is restocked more often than it was sold.
  await db.schema.alterTable('order_refunds').addColumn('note', 'varchar(500)').execute();
  await db.schema
    .createTable('order_refund_lines')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('refund_id', 'integer', (c) => c.notNull().references('order_refunds.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('order_lines.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .execute();
  await db.schema.createIndex('order_refund_lines_line_idx').on('order_refund_lines').column('order_line_id').execute();

  // The back office's order list: newest first, and found by postcode, surname or e-mail.
  await db.schema.createIndex('orders_created_idx').on('orders').column('created_at').execute();
  // The dashboard's sales by day, and its orders waiting to be dispatched.
  await db.schema.createIndex('orders_paid_at_idx').on('orders').column('paid_at').execute();
  await db.schema
    .createIndex('orders_fulfilment_status_idx')
    .on('orders')
    .columns(['fulfilment', 'status', 'id'])
    .execute();
  await db.schema.createIndex('orders_total_idx').on('orders').columns(['total_including_delivery', 'id']).execute();
  // Searched by the forms people type: a postcode with or without its space, a name or an e-mail
  // address in any case (src/server/orders/orders.admin-repository.ts uses the same expressions).
  await db.schema
    .createIndex('orders_postcode_key_idx')
    .on('orders')
    .expression(sql`replace(upper(delivery_postcode), ' ', '')`)
    .execute();
  await db.schema
    .createIndex('orders_billing_postcode_key_idx')
    .on('orders')
    .expression(sql`replace(upper(billing_postcode), ' ', '')`)
    .execute();
  await db.schema
    .createIndex('orders_lastname_key_idx')
    .on('orders')
    .expression(sql`lower(lastname)`)
    .execute();
  await db.schema
    .createIndex('orders_email_lower_idx')
    .on('orders')
    .expression(sql`lower(email)`)
    .execute();
}
