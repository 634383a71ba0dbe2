import { decimalToPence, penceToDecimal } from '../../../../contract/money.ts';
import type { LineForPayment, OrderForPayment } from '../../paypal.ts';

/**
 * The Orders v2 request for a committed order (docs/rules.md#payments): intent CAPTURE, one purchase unit in
 * GBP whose breakdown (item total, shipping, discount) adds up to the amount to the penny, the
 * order number as invoice_id, and the shopper's way back.
 */

const gbp = (pence: number) => ({ currency_code: 'GBP', value: penceToDecimal(pence) });

export class BreakdownMismatch extends Error {}

export function checkoutOrderRequest(
  order: OrderForPayment & { items_total: number },
  lines: LineForPayment[],
  options: { returnUrl: string; cancelUrl: string; shopName: string },
) {
  const itemTotal = lines.reduce((sum, line) => sum + line.unit_price * line.quantity, 0);
  // PayPal refuses an order whose parts do not make its amount; so does the shop, before asking.
  if (
    itemTotal !== order.items_total ||
    itemTotal + order.delivery_price - order.discount_amount !== order.total_including_delivery
  )
    throw new BreakdownMismatch(`order ${order.order_number}: its lines and totals do not add up`);
  return {
    intent: 'CAPTURE',
    purchase_units: [
      {
        reference_id: String(order.order_number),
        invoice_id: String(order.order_number),
        description: `${options.shopName} order ${order.order_number}`.slice(0, 127),
        amount: {
          ...gbp(order.total_including_delivery),
          breakdown: {
            item_total: gbp(itemTotal),
            shipping: gbp(order.delivery_price),
            discount: gbp(order.discount_amount),
          },
        },
        items: lines.map((line) => ({
          name: `${line.title} (${line.size_name})`.slice(0, 127),
          quantity: String(line.quantity),
          unit_amount: gbp(line.unit_price),
          category: 'PHYSICAL_GOODS',
        })),
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          brand_name: options.shopName.slice(0, 127),
          locale: 'en-GB',
          shipping_preference: 'NO_SHIPPING',
          user_action: 'PAY_NOW',
          return_url: options.returnUrl,
          cancel_url: options.cancelUrl,
        },
      },
    },
  };
}

/** A capture or refund resource as PayPal sends it, read defensively. */
export interface MoneyResource {
  id: string;
  status: string;
  pence: number | undefined;
  currency: string;
  invoiceId: string;
  customId: string;
  /** A capture's PayPal order; a refund's capture. */
  parentId: string;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function readMoneyResource(resource: unknown, kind: 'capture' | 'refund'): MoneyResource | undefined {
  const r = record(resource);
  const amount = record(r.amount);
  const id = text(r.id);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) return undefined;
  const up = (Array.isArray(r.links) ? r.links : []).map(record).find((link) => link.rel === 'up');
  const parentId =
    kind === 'capture'
      ? text(record(record(r.supplementary_data).related_ids).order_id)
      : (/\/captures\/([A-Za-z0-9-]+)$/.exec(text(up?.href))?.[1] ?? '');
  return {
    id,
    status: text(r.status),
    pence: decimalToPence(text(amount.value)),
    currency: text(amount.currency_code),
    invoiceId: text(r.invoice_id),
    customId: text(r.custom_id),
    parentId,
  };
}

/** The capture in an Orders v2 answer (after capture, or a look-up of the order). */
export function captureOf(order: Record<string, unknown>): unknown {
  const unit = (Array.isArray(order.purchase_units) ? order.purchase_units : [])[0];
  const captures = record(record(unit).payments).captures;
  return Array.isArray(captures) ? captures[0] : undefined;
}

export function approveLinkOf(order: Record<string, unknown>): string | undefined {
  const links = (Array.isArray(order.links) ? order.links : []).map(record);
  const link = links.find((l) => l.rel === 'payer-action') ?? links.find((l) => l.rel === 'approve');
  const href = text(link?.href);
  return /^https?:\/\//.test(href) ? href : undefined;
}
