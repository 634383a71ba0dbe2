import type { AccountingDocument, PackingSlip } from '../../../contract/documents.ts';
import { drawCreditNote, drawInvoice } from './accounting-pages.ts';
import { drawPackingSlip } from './packing-pages.ts';
import { PdfWriter } from './pdf-layout.ts';

/**
 * What the document thread draws (document-renderer.ts): accounting documents (one invoice; a
 * period's invoices and credit notes for the accountant) or packing slips, each starting on a page
 * of its own, in the order given. Pure CPU work, never run on the event loop.
 */
export type RenderTask =
  | { kind: 'accounting'; title: string; documents: readonly AccountingDocument[] }
  | {
      kind: 'packing';
      title: string;
      slips: readonly PackingSlip[];
      /** Each product's picture (JPEG), by product id. */
      pictures: ReadonlyArray<readonly [number, Uint8Array]>;
    };

export async function renderDocuments(task: RenderTask): Promise<Buffer> {
  const pdf = new PdfWriter(task.title);
  if (task.kind === 'accounting') {
    for (const document of task.documents) {
      if (document.kind === 'invoice') drawInvoice(pdf, document);
      else drawCreditNote(pdf, document);
    }
  } else {
    const pictures = new Map(task.pictures);
    for (const slip of task.slips) await drawPackingSlip(pdf, slip, pictures);
  }
  if ((task.kind === 'accounting' ? task.documents.length : task.slips.length) === 0) {
    pdf.startDocument(task.title);
    pdf.heading(task.title);
    pdf.paragraph([
      task.kind === 'accounting' ? 'No documents were issued in this period.' : 'No orders are waiting to be packed.',
    ]);
  }
  return pdf.finish();
}
