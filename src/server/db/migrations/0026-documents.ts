import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * VAT invoices and credit notes (docs/rules.md#invoices-and-credit-notes): each issued once, as
 * the document it is (its JSON, rendered to PDF whenever asked), never changed afterwards. Their
 * numbers come from rows of `counters`, taken in the transaction that issues them: the row's lock
 * holds other issuers until it commits, and a transaction that fails gives its number back, so the
 * numbers have no gaps (unlike order numbers, which a sequence gives on PostgreSQL: migration 0006).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('invoices')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id'))
    // Kept beside the id, as printed: documents are found by the number staff and customers know.
    .addColumn('order_number', 'integer', (c) => c.notNull())
    .addColumn('invoice_number', 'integer', (c) => c.notNull().unique())
    .addColumn('issued_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoices_order_number').on('invoices').column('order_number').execute();
  await db.schema.createIndex('invoices_issued_at').on('invoices').column('issued_at').execute();
  await db.schema
    .createTable('credit_notes')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('order_number', 'integer', (c) => c.notNull())
    .addColumn('refund_id', 'integer', (c) => c.notNull().unique().references('order_refunds.id'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id'))
    .addColumn('credit_note_number', 'integer', (c) => c.notNull().unique())
    .addColumn('issued_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_notes_order_number').on('credit_notes').column('order_number').execute();
  await db.schema.createIndex('credit_notes_issued_at').on('credit_notes').column('issued_at').execute();
  await db
    .insertInto('counters')
    .values([
      { name: 'invoice_number', value: 0 },
      { name: 'credit_note_number', value: 0 },
    ])
    .execute();
}
