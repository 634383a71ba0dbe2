import type { CreditNoteDocument, InvoiceDocument } from '../../../contract/documents.ts';
import { formatPence } from '../../../contract/money.ts';
import type { PdfWriter } from './pdf-layout.ts';

/**
 * The pages of a VAT invoice and of a credit note (docs/rules.md#invoices-and-credit-notes), drawn
 * from the document as it was issued. An invoice carries what HMRC asks of a full VAT invoice: its
 * number, the date of issue and the time of supply, the seller's name, address and VAT number, the
 * customer's name and address, and per line the description, quantity, unit price without VAT,
 * rate and net amount, then the totals without VAT, the VAT and with it, in sterling.
 */

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });
/** "28 November 2026": documents print days in the shop's own time zone. */
export const dayOf = (iso: string) => day.format(new Date(iso));

function sellerLines(seller: InvoiceDocument['seller']): string[] {
  return [
    seller.name,
    ...seller.address,
    `VAT registration number: ${seller.vatNumber}`,
    `Company number: ${seller.companyNumber}`,
    seller.email,
  ];
}

export function drawInvoice(pdf: PdfWriter, invoice: InvoiceDocument): void {
  pdf.startDocument(`VAT invoice ${invoice.number}`);
  pdf.heading('VAT invoice');
  pdf.facts([
    ['Invoice number', invoice.number],
    ['Date of issue', dayOf(invoice.issuedAt)],
    ['Time of supply', dayOf(invoice.suppliedAt)],
    ['Order number', String(invoice.orderNumber)],
  ]);
  pdf.columns([
    { title: 'From', lines: sellerLines(invoice.seller) },
    { title: 'Billed to', lines: [invoice.customer.name, ...invoice.customer.address, invoice.customer.email] },
  ]);
  pdf.columns([
    { title: 'Delivered to', lines: invoice.deliveryAddress },
    { title: 'Delivery', lines: [invoice.deliveryMethod] },
  ]);
  pdf.table(
    [
      { header: 'Description', width: 40 },
      { header: 'Qty', width: 7, align: 'right' },
      { header: 'Unit price excl. VAT', width: 15, align: 'right' },
      { header: 'VAT rate', width: 10, align: 'right' },
      { header: 'Net', width: 14, align: 'right' },
      { header: 'VAT', width: 14, align: 'right' },
    ],
    invoice.lines.map((line) => [
      line.description,
      String(line.quantity),
      formatPence(line.unitNet),
      `${line.vatRatePercent}%`,
      formatPence(line.net),
      formatPence(line.vat),
    ]),
  );
  pdf.table(
    [
      { header: 'Totals (GBP)', width: 70 },
      { header: 'Amount', width: 30, align: 'right' },
    ],
    [
      ['Total excluding VAT', formatPence(invoice.totals.net)],
      [`VAT at ${invoice.lines[0]?.vatRatePercent ?? 20}%`, formatPence(invoice.totals.vat)],
      ['Total including VAT', formatPence(invoice.totals.gross)],
    ],
    { boldLast: 1 },
  );
  pdf.paragraph([`Paid in full by ${invoice.paidBy} on ${dayOf(invoice.suppliedAt)}. Thank you for your order.`], {
    quiet: true,
  });
}

export function drawCreditNote(pdf: PdfWriter, note: CreditNoteDocument): void {
  pdf.startDocument(`Credit note ${note.number}`);
  pdf.heading('Credit note');
  pdf.facts([
    ['Credit note number', note.number],
    ['Date of issue', dayOf(note.issuedAt)],
    ['Against invoice', `${note.invoiceNumber} of ${dayOf(note.invoiceIssuedAt)}`],
    ['Order number', String(note.orderNumber)],
  ]);
  pdf.columns([
    { title: 'From', lines: sellerLines(note.seller) },
    { title: 'Credited to', lines: [note.customer.name, ...note.customer.address, note.customer.email] },
  ]);
  pdf.subheading('Reason');
  pdf.paragraph([note.reason]);
  if (note.returnedLines.length > 0)
    pdf.table(
      [
        { header: 'Returned', width: 80 },
        { header: 'Qty', width: 20, align: 'right' },
      ],
      note.returnedLines.map((line) => [line.description, String(line.quantity)]),
    );
  pdf.table(
    [
      { header: 'Credited (GBP)', width: 70 },
      { header: 'Amount', width: 30, align: 'right' },
    ],
    [
      ['Total excluding VAT', formatPence(note.totals.net)],
      [`VAT at ${note.vatRatePercent}%`, formatPence(note.totals.vat)],
      ['Total including VAT', formatPence(note.totals.gross)],
    ],
    { boldLast: 1 },
  );
  pdf.paragraph([`Refunded by ${note.refundedBy}.`], { quiet: true });
}
