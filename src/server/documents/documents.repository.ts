import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The documents' own SQL (migration 0026): invoices and credit notes as issued, and the counters
 * their numbers come from.
 */

/**
 * The next number of a document's sequence, taken in the caller's transaction. The update locks
 * the counter's row until that transaction ends, so two issuers take numbers one after the other,
 * and a transaction rolled back gives its number back: no gaps.
 */
export async function takeDocumentNumber(
  trx: Kysely<Database>,
  counter: 'invoice_number' | 'credit_note_number',
): Promise<number> {
  const row = await trx
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', counter)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function insertInvoice(
  trx: Kysely<Database>,
  invoice: { orderId: number; orderNumber: number; number: number; issuedAt: string; document: string },
): Promise<number> {
  const row = await trx
    .insertInto('invoices')
    .values({
      order_id: invoice.orderId,
      order_number: invoice.orderNumber,
      invoice_number: invoice.number,
      issued_at: invoice.issuedAt,
      document: invoice.document,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findInvoiceOfOrder(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

export async function insertCreditNote(
  trx: Kysely<Database>,
  note: {
    orderId: number;
    orderNumber: number;
    refundId: number;
    invoiceId: number;
    number: number;
    issuedAt: string;
    document: string;
  },
): Promise<void> {
  await trx
    .insertInto('credit_notes')
    .values({
      order_id: note.orderId,
      order_number: note.orderNumber,
      refund_id: note.refundId,
      invoice_id: note.invoiceId,
      credit_note_number: note.number,
      issued_at: note.issuedAt,
      document: note.document,
    })
    .execute();
}

export function findInvoiceByOrderNumber(db: Kysely<Database>, orderNumber: number) {
  return db.selectFrom('invoices').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
}

export function findCreditNotesByOrderNumber(db: Kysely<Database>, orderNumber: number) {
  return db
    .selectFrom('credit_notes')
    .selectAll()
    .where('order_number', '=', orderNumber)
    .orderBy('credit_note_number')
    .execute();
}

export function findCreditNoteByNumber(db: Kysely<Database>, number: number) {
  return db.selectFrom('credit_notes').selectAll().where('credit_note_number', '=', number).executeTakeFirst();
}

/** Invoices and credit notes issued from `from` (inclusive) to `to` (exclusive), each in number order. */
/** How many invoices and credit notes were issued in [from, to): a batch's size before it is read. */
export async function countDocumentsIssuedBetween(db: Kysely<Database>, from: string, to: string): Promise<number> {
  const counted = await Promise.all(
    (['invoices', 'credit_notes'] as const).map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('issued_at', '>=', from)
        .where('issued_at', '<', to)
        .executeTakeFirstOrThrow(),
    ),
  );
  return counted.reduce((sum, row) => sum + Number(row.count), 0);
}

export async function documentsIssuedBetween(db: Kysely<Database>, from: string, to: string) {
  const [invoices, creditNotes] = await Promise.all([
    db
      .selectFrom('invoices')
      .select(['invoice_number', 'document'])
      .where('issued_at', '>=', from)
      .where('issued_at', '<', to)
      .orderBy('invoice_number')
      .execute(),
    db
      .selectFrom('credit_notes')
      .select(['credit_note_number', 'document'])
      .where('issued_at', '>=', from)
      .where('issued_at', '<', to)
      .orderBy('credit_note_number')
      .execute(),
  ]);
  return { invoices, creditNotes };
}

/**
 * The link version of the order a customer's document link names (document-links.ts): an
 * invoice's by its order's number, a credit note's through its order. Undefined when there is none.
 */
export async function findLinkVersionOfDocument(
  db: Kysely<Database>,
  kind: 'invoice' | 'credit-note',
  number: number,
): Promise<number | undefined> {
  const row =
    kind === 'invoice'
      ? await db.selectFrom('orders').select('link_version').where('order_number', '=', number).executeTakeFirst()
      : await db
          .selectFrom('credit_notes')
          .innerJoin('orders', 'orders.order_number', 'credit_notes.order_number')
          .select('orders.link_version')
          .where('credit_notes.credit_note_number', '=', number)
          .executeTakeFirst();
  return row?.link_version;
}
