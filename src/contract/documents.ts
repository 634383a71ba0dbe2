import { z } from 'zod';

/**
 * The shop's accounting documents (docs/rules.md#invoices-and-credit-notes): a VAT invoice for each
 * paid order and a credit note for each refund, each kept as issued (this JSON) and drawn as a PDF
 * whenever asked. Money is integer pence; every amount includes or excludes VAT as its name says.
 */

const pence = z.number().int();

/** Who issues the documents: the shop as registered for VAT, from its settings when issued. */
export const documentIssuerSchema = z.object({
  name: z.string(),
  /** The shop's postal address, one line per line. */
  address: z.array(z.string()),
  vatNumber: z.string(),
  companyNumber: z.string(),
  email: z.string(),
});
export type DocumentIssuer = z.infer<typeof documentIssuerSchema>;

const customerSchema = z.object({
  name: z.string(),
  email: z.string(),
  /** The billing address, one line per line (the country last). */
  address: z.array(z.string()),
});

/** A line of an invoice: an item sold, the delivery, or a voucher's discount (negative). */
export const invoiceLineSchema = z.object({
  kind: z.enum(['item', 'delivery', 'discount']),
  description: z.string(),
  quantity: z.number().int(),
  /** The unit price without VAT, to the nearest penny. */
  unitNet: pence,
  vatRatePercent: z.number(),
  net: pence,
  vat: pence,
  gross: pence,
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

const totalsSchema = z.object({ net: pence, vat: pence, gross: pence });

export const invoiceDocumentSchema = z.object({
  kind: z.literal('invoice'),
  /** Its own number in the invoices' gapless sequence, as printed: INV-000001. */
  number: z.string(),
  issuedAt: z.string(),
  /** The time of supply (the tax point): when the order was paid. */
  suppliedAt: z.string(),
  orderNumber: z.number().int(),
  seller: documentIssuerSchema,
  customer: customerSchema,
  deliveryAddress: z.array(z.string()),
  deliveryMethod: z.string(),
  paidBy: z.string(),
  lines: z.array(invoiceLineSchema),
  totals: totalsSchema,
  currency: z.literal('GBP'),
});
export type InvoiceDocument = z.infer<typeof invoiceDocumentSchema>;

export const creditNoteDocumentSchema = z.object({
  kind: z.literal('credit-note'),
  /** Its own number in the credit notes' gapless sequence, as printed: CN-000001. */
  number: z.string(),
  issuedAt: z.string(),
  /** The invoice it credits, as printed. */
  invoiceNumber: z.string(),
  invoiceIssuedAt: z.string(),
  orderNumber: z.number().int(),
  seller: documentIssuerSchema,
  customer: customerSchema,
  /** Why it was refunded, as staff gave it (or the provider reported it). */
  reason: z.string(),
  /** The lines that came back into stock with it, if any. */
  returnedLines: z.array(z.object({ description: z.string(), quantity: z.number().int() })),
  vatRatePercent: z.number(),
  /** What was refunded: net, VAT and gross. */
  totals: totalsSchema,
  refundedBy: z.string(),
  currency: z.literal('GBP'),
});
export type CreditNoteDocument = z.infer<typeof creditNoteDocumentSchema>;

export type AccountingDocument = InvoiceDocument | CreditNoteDocument;

/** 42 -> "INV-000042": how an invoice's number is printed and named. */
export function invoiceNumberText(number: number): string {
  return `INV-${String(number).padStart(6, '0')}`;
}

/** 7 -> "CN-000007": how a credit note's number is printed and named. */
export function creditNoteNumberText(number: number): string {
  return `CN-${String(number).padStart(6, '0')}`;
}

/**
 * GET /api/documents/{kind}/{number}/{signature}: a document by the signed link a customer is
 * sent: an invoice by its order's number, a credit note by its own.
 */
export const documentLinkParamsSchema = z.object({
  kind: z.enum(['invoice', 'credit-note']),
  number: z.coerce.number().int().min(1).max(2_147_483_647),
  signature: z.string().regex(/^[\w-]{43}$/, 'a link’s signature'),
});

/**
 * A packing slip: what to put in an order's parcel and where it goes. Drawn when asked, never
 * kept: it shows the order as it is (units refunded back into stock are not packed).
 */
export interface PackingSlip {
  orderNumber: number;
  placedAt: string;
  customerName: string;
  deliveryAddress: string[];
  deliveryMethod: string;
  /** Collected from the shop (a delivery method of the kind collection): no address to send to. */
  collected: boolean;
  contactNumber: string;
  lines: Array<{ productId: number; title: string; size: string; quantity: number }>;
}
