import type { Kysely } from 'kysely';
import type { DocumentBatchQuery, OrderDocuments } from '../../contract/admin/documents.ts';
import {
  creditNoteDocumentSchema,
  invoiceDocumentSchema,
  type AccountingDocument,
  type InvoiceDocument,
  type PackingSlip,
} from '../../contract/documents.ts';
import { ukDayMinus, ukDayStart } from '../dashboard/uk-days.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { DocumentLinks, LinkedDocument } from './document-links.ts';
import type { DocumentRenderer } from './document-renderer.ts';
import {
  countDocumentsIssuedBetween,
  documentsIssuedBetween,
  findCreditNoteByNumber,
  findCreditNotesByOrderNumber,
  findInvoiceByOrderNumber,
  findLinkVersionOfDocument,
} from './documents.repository.ts';

/**
 * Invoices and credit notes as PDFs (docs/back-office.md#invoices-and-credit-notes): one, an
 * order's, or all issued in a period for the accountant; and the signed links that let a customer
 * open their own without signing in (the order e-mails carry them).
 */

export interface Pdf {
  filename: string;
  bytes: Buffer;
}

/**
 * The most invoices and credit notes one batch PDF holds: drawn in the one thread every PDF is
 * drawn in, a batch must not keep the packing slips waiting for minutes (an outside attack).
 */
export const MAX_BATCH_DOCUMENTS = 2_000;

export function createDocumentsService(
  db: Kysely<Database>,
  options: {
    renderer: DocumentRenderer;
    /** The orders feature's invoice of a paid order, issued when first asked for (order-documents.ts). */
    invoiceOfPaidOrder: (orderNumber: number) => Promise<InvoiceDocument | undefined>;
    /** The orders feature's packing slips: one order's, or every order waiting to dispatch. */
    packingSlipsOf: (which: { orderNumber: number } | 'waiting to dispatch') => Promise<PackingSlip[]>;
    /** The products' pictures to print beside their lines (the photos feature's, as JPEG). */
    printPictures: (productIds: readonly number[]) => Promise<ReadonlyMap<number, Uint8Array>>;
    /** The signed links customers open documents by. */
    links: DocumentLinks;
    /** The most documents one batch PDF holds (MAX_BATCH_DOCUMENTS unless told). */
    maxBatchDocuments?: number;
  },
) {
  const { renderer } = options;

  async function invoiceOf(orderNumber: number): Promise<InvoiceDocument> {
    const issued = await findInvoiceByOrderNumber(db, orderNumber);
    const invoice = issued
      ? invoiceDocumentSchema.parse(JSON.parse(issued.document))
      : await options.invoiceOfPaidOrder(orderNumber);
    if (!invoice) throw new NotFoundError(`Order ${orderNumber} has no invoice: it has not been paid`);
    return invoice;
  }

  async function creditNoteOf(creditNoteNumber: number) {
    const issued = await findCreditNoteByNumber(db, creditNoteNumber);
    if (!issued) throw new NotFoundError(`There is no credit note ${creditNoteNumber}`);
    return creditNoteDocumentSchema.parse(JSON.parse(issued.document));
  }

  const pdfOf = async (document: AccountingDocument): Promise<Pdf> => ({
    filename: `${document.number}.pdf`,
    bytes: await renderer.render({
      kind: 'accounting',
      title: `${document.kind === 'invoice' ? 'VAT invoice' : 'Credit note'} ${document.number}`,
      documents: [document],
    }),
  });

  async function packingPdf(title: string, filename: string, slips: PackingSlip[]): Promise<Pdf> {
    const pictures = await options.printPictures(slips.flatMap((slip) => slip.lines.map((line) => line.productId)));
    return { filename, bytes: await renderer.render({ kind: 'packing', title, slips, pictures: [...pictures] }) };
  }

  return {
    invoicePdf: async (orderNumber: number) => pdfOf(await invoiceOf(orderNumber)),
    creditNotePdf: async (creditNoteNumber: number) => pdfOf(await creditNoteOf(creditNoteNumber)),

    /** The documents an order has, with the addresses staff open them at. */
    async ofOrder(orderNumber: number): Promise<OrderDocuments> {
      const [invoice, creditNotes] = await Promise.all([
        findInvoiceByOrderNumber(db, orderNumber),
        findCreditNotesByOrderNumber(db, orderNumber),
      ]);
      return {
        invoice: invoice
          ? {
              number: invoiceDocumentSchema.parse(JSON.parse(invoice.document)).number,
              issuedAt: invoice.issued_at,
              url: `/api/admin/orders/${orderNumber}/invoice`,
            }
          : null,
        creditNotes: creditNotes.map((row) => {
          const note = creditNoteDocumentSchema.parse(JSON.parse(row.document));
          return {
            number: note.number,
            issuedAt: row.issued_at,
            amount: note.totals.gross,
            url: `/api/admin/credit-notes/${row.credit_note_number}`,
          };
        }),
      };
    },

    /** Every invoice, then every credit note, issued in the period (UK days, both included), as one PDF. */
    async batchPdf(query: DocumentBatchQuery): Promise<Pdf> {
      const from = ukDayStart(query.from).toISOString();
      const to = ukDayStart(ukDayMinus(query.to, -1)).toISOString();
      const count = await countDocumentsIssuedBetween(db, from, to);
      const most = options.maxBatchDocuments ?? MAX_BATCH_DOCUMENTS;
      if (count > most)
        throw new BadRequestError(
          `${count} documents were issued from ${query.from} to ${query.to}; one PDF holds at most ${most}: please choose a shorter period.`,
          'to',
        );
      const issued = await documentsIssuedBetween(db, from, to);
      const documents: AccountingDocument[] = [
        ...issued.invoices.map((row) => invoiceDocumentSchema.parse(JSON.parse(row.document))),
        ...issued.creditNotes.map((row) => creditNoteDocumentSchema.parse(JSON.parse(row.document))),
      ];
      const title = `Invoices and credit notes, ${query.from} to ${query.to}`;
      return {
        filename: `documents-${query.from}-to-${query.to}.pdf`,
        bytes: await renderer.render({ kind: 'accounting', title, documents }),
      };
    },

    /** An order's packing slip (any order's, so one can be printed again). */
    async packingSlipPdf(orderNumber: number): Promise<Pdf> {
      const slips = await options.packingSlipsOf({ orderNumber });
      return packingPdf(`Packing slip for order ${orderNumber}`, `packing-slip-${orderNumber}.pdf`, slips);
    },

    /** A packing slip for every paid order waiting to be dispatched, oldest first, a page each. */
    async packingSlipsPdf(now: Date): Promise<Pdf> {
      const slips = await options.packingSlipsOf('waiting to dispatch');
      const day = now.toISOString().slice(0, 10);
      return packingPdf('Packing slips: orders waiting to be dispatched', `packing-slips-${day}.pdf`, slips);
    },

    /** A document by its signed link; a link whose signature is not the shop's, or is revoked, finds nothing. */
    async pdfByLink(kind: LinkedDocument, number: number, signature: string): Promise<Pdf> {
      // Signed with the order's link version: revoking the order's link revokes its documents'.
      // A document that does not exist is checked at version 1, so it takes the time a wrong link does.
      const linkVersion = await findLinkVersionOfDocument(db, kind, number);
      if (!options.links.verify(kind, number, linkVersion ?? 1, signature) || linkVersion === undefined)
        throw new NotFoundError('There is no such document');
      return kind === 'invoice' ? pdfOf(await invoiceOf(number)) : pdfOf(await creditNoteOf(number));
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
