import type { AccountingDocument } from '../../../contract/documents.ts';
import { drawCreditNote, drawInvoice } from './accounting-pages.ts';
import { PdfWriter } from './pdf-layout.ts';

/**
 * One PDF of any number of documents, each starting on a page of its own, in the order given (one
 * invoice; a day's invoices and credit notes for the accountant). Pure CPU work: the server runs it
 * in its document thread (document-renderer.ts), never on its event loop.
 */
export async function renderDocuments(title: string, documents: readonly AccountingDocument[]): Promise<Buffer> {
  const pdf = new PdfWriter(title);
  for (const document of documents) {
    if (document.kind === 'invoice') drawInvoice(pdf, document);
    else drawCreditNote(pdf, document);
  }
  if (documents.length === 0) {
    pdf.startDocument(title);
    pdf.heading(title);
    pdf.paragraph(['No documents were issued in this period.']);
  }
  return pdf.finish();
}
