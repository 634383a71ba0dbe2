import type { Kysely, Selectable } from 'kysely';
import {
  creditNoteNumberText,
  documentIssuerSchema,
  invoiceDocumentSchema,
  invoiceNumberText,
  type CreditNoteDocument,
  type DocumentIssuer,
  type InvoiceDocument,
  type InvoiceLine,
} from '../../contract/documents.ts';
import { VAT_RATE_PERCENT, vatBreakdown, vatContainedIn } from '../../contract/money.ts';
import type { Database, OrderLineTable, OrderRefundTable, OrderTable } from '../db/schema.ts';
import { readSetting, writeSetting } from '../db/settings.repository.ts';
import { findInvoiceOfOrder, insertCreditNote, insertInvoice, takeDocumentNumber } from './documents.repository.ts';

/**
 * Issuing the VAT invoice of a paid order and the credit note of a refund (docs/rules.md#invoices-and-credit-notes),
 * each in the transaction that pays or refunds, so a document exists exactly when its payment or
 * refund does and takes the next number of its gapless sequence. What is issued is kept as it is:
 * later changes to the order, the catalogue or the shop's details never reach it.
 */

type OrderRow = Selectable<OrderTable>;
type OrderLineRow = Pick<Selectable<OrderLineTable>, 'title' | 'size_name' | 'unit_price' | 'quantity' | 'line_total'>;

/** The setting that holds the shop's details as its documents print them. */
const ISSUER_SETTING = 'document_issuer';

/** Keeps the shop's details for the documents it issues from now on (from configuration, at start). */
export async function setDocumentIssuer(db: Kysely<Database>, issuer: DocumentIssuer): Promise<void> {
  const value = JSON.stringify(documentIssuerSchema.parse(issuer));
  // Every instance calls this as it starts: only a change is written, so starts do not queue on
  // the settings row's lock behind a busy shop's transactions.
  if ((await readSetting(db, ISSUER_SETTING)) !== value) await writeSetting(db, ISSUER_SETTING, value);
}

async function documentIssuer(trx: Kysely<Database>): Promise<DocumentIssuer> {
  const stored = await readSetting(trx, ISSUER_SETTING);
  if (stored === undefined) throw new Error('the shop’s details for its invoices are not set (setDocumentIssuer)');
  return documentIssuerSchema.parse(JSON.parse(stored));
}

/**
 * Who took a payment or made a refund, as the documents say it ("Paid in full by …", "Refunded by
 * …"): by the provider's id, both PayPal integrations being PayPal to the customer; `manual` is a
 * refund staff made outside the shop and recorded.
 */
const providerNames: Record<string, string> = {
  paypal: 'PayPal',
  'paypal-checkout': 'PayPal',
  opayo: 'Card (Opayo)',
  manual: 'the shop directly',
};

function billingAddressOf(order: OrderRow): string[] {
  return [
    order.billing_line1,
    order.billing_line2,
    order.billing_line3,
    order.billing_town_city,
    order.billing_postcode,
    order.billing_country_name,
  ].filter((line) => line.trim() !== '');
}

function deliveryAddressOf(order: OrderRow): string[] {
  return [
    order.delivery_line1,
    order.delivery_line2,
    order.delivery_line3,
    order.delivery_town_city,
    order.delivery_postcode,
    order.delivery_country_name,
  ].filter((line) => line.trim() !== '');
}

/** The unit price without VAT, to the nearest penny. */
const unitNetOf = (unitGross: number) => unitGross - vatContainedIn(unitGross);

/**
 * An order's invoice: its lines, then the voucher's discount and the delivery as lines of their
 * own, split into net and VAT by the same arithmetic as the order's VAT (contract/money.ts), so
 * the invoice's totals are the order's.
 */
export function invoiceOf(
  source: { order: OrderRow; lines: readonly OrderLineRow[] },
  issuer: DocumentIssuer,
  number: number,
  issuedAt: string,
): InvoiceDocument {
  const { order } = source;
  const drafts: Array<Pick<InvoiceLine, 'kind' | 'description' | 'quantity'> & { gross: number; unitGross: number }> = [
    ...source.lines.map((line) => ({
      kind: 'item' as const,
      description: `${line.title} (${line.size_name})`,
      quantity: line.quantity,
      unitGross: line.unit_price,
      gross: line.line_total,
    })),
    ...(order.discount_amount > 0
      ? [
          {
            kind: 'discount' as const,
            description: order.voucher_code ? `Voucher ${order.voucher_code}` : 'Discount',
            quantity: 1,
            unitGross: -order.discount_amount,
            gross: -order.discount_amount,
          },
        ]
      : []),
    {
      kind: 'delivery' as const,
      description: `Delivery: ${order.delivery_method_name}`,
      quantity: 1,
      unitGross: order.delivery_price,
      gross: order.delivery_price,
    },
  ];
  const split = vatBreakdown(drafts.map((line) => line.gross));
  if (split.gross !== order.total_including_delivery || split.vat !== order.total_vat)
    throw new Error(`order ${order.order_number}: its lines do not add up to its total`);
  return invoiceDocumentSchema.parse({
    kind: 'invoice',
    number: invoiceNumberText(number),
    issuedAt,
    suppliedAt: order.paid_at ?? issuedAt,
    orderNumber: order.order_number,
    seller: issuer,
    customer: { name: `${order.firstname} ${order.lastname}`, email: order.email, address: billingAddressOf(order) },
    deliveryAddress: deliveryAddressOf(order),
    deliveryMethod: order.delivery_method_name,
    paidBy: providerNames[order.payment_provider ?? ''] ?? order.payment_provider ?? 'Unknown',
    lines: drafts.map((line, i) => ({
      kind: line.kind,
      description: line.description,
      quantity: line.quantity,
      unitNet: Math.sign(line.unitGross) * unitNetOf(Math.abs(line.unitGross)),
      vatRatePercent: VAT_RATE_PERCENT,
      ...split.lines[i],
    })),
    totals: { net: split.net, vat: split.vat, gross: split.gross },
    currency: 'GBP',
  });
}

/**
 * Issues the invoice of an order just paid, in the paying transaction; an order invoiced already
 * keeps the one it has. Answers the invoice's row.
 */
export async function issueInvoice(
  trx: Kysely<Database>,
  source: { order: OrderRow; lines: readonly OrderLineRow[] },
  at: string,
): Promise<{ id: number; number: number; document: InvoiceDocument }> {
  const issued = await findInvoiceOfOrder(trx, source.order.id);
  if (issued)
    return {
      id: issued.id,
      number: issued.invoice_number,
      document: invoiceDocumentSchema.parse(JSON.parse(issued.document)),
    };
  const issuer = await documentIssuer(trx);
  // The number last, just before the row: its counter stays locked only until this transaction ends.
  const number = await takeDocumentNumber(trx, 'invoice_number');
  const document = invoiceOf(source, issuer, number, at);
  const id = await insertInvoice(trx, {
    orderId: source.order.id,
    orderNumber: source.order.order_number,
    number,
    issuedAt: at,
    document: JSON.stringify(document),
  });
  return { id, number, document };
}

/**
 * Issues the credit note of a refund just recorded, in its transaction, against the order's
 * invoice (issued now if the order was paid before invoices were: its time of supply is still
 * when it was paid). The amount refunded is split into net and VAT at the invoice's rate.
 */
export async function issueCreditNote(
  trx: Kysely<Database>,
  source: {
    order: OrderRow;
    lines: readonly OrderLineRow[];
    refund: Pick<Selectable<OrderRefundTable>, 'id' | 'amount' | 'provider' | 'note'>;
    returned: ReadonlyArray<{ title: string; size_name: string; quantity: number }>;
  },
  at: string,
): Promise<number> {
  const invoice = await issueInvoice(trx, source, at);
  const issuer = await documentIssuer(trx);
  const number = await takeDocumentNumber(trx, 'credit_note_number');
  const vat = vatContainedIn(source.refund.amount);
  const document: CreditNoteDocument = {
    kind: 'credit-note',
    number: creditNoteNumberText(number),
    issuedAt: at,
    invoiceNumber: invoice.document.number,
    invoiceIssuedAt: invoice.document.issuedAt,
    orderNumber: source.order.order_number,
    seller: issuer,
    customer: invoice.document.customer,
    reason: source.refund.note?.trim() || 'Refund',
    returnedLines: source.returned.map((line) => ({
      description: `${line.title} (${line.size_name})`,
      quantity: line.quantity,
    })),
    vatRatePercent: VAT_RATE_PERCENT,
    totals: { net: source.refund.amount - vat, vat, gross: source.refund.amount },
    refundedBy: providerNames[source.refund.provider] ?? source.refund.provider,
    currency: 'GBP',
  };
  await insertCreditNote(trx, {
    orderId: source.order.id,
    orderNumber: source.order.order_number,
    refundId: source.refund.id,
    invoiceId: invoice.id,
    number,
    issuedAt: at,
    document: JSON.stringify(document),
  });
  return number;
}
