import { penceToDecimal } from '../../contract/money.ts';

/**
 * PayPal Payments Standard (docs/rules.md#payments): a cart upload form posted by the browser, and
 * payment confirmed only by an Instant Payment Notification that PayPal itself verifies.
 */

export type PaypalMode = 'local' | 'sandbox' | 'live';

export function paypalUrls(mode: PaypalMode, publicUrl: string) {
  if (mode === 'local') {
    return { webscr: `${publicUrl}/sandbox/paypal/webscr`, validate: `${publicUrl}/sandbox/paypal/ipn-validate` };
  }
  const host = mode === 'sandbox' ? 'sandbox.paypal.com' : 'paypal.com';
  return { webscr: `https://www.${host}/cgi-bin/webscr`, validate: `https://ipnpb.${host}/cgi-bin/webscr` };
}

export interface OrderForPayment {
  order_number: number;
  order_code: string;
  delivery_price: number;
  discount_amount: number;
  total_including_delivery: number;
}

export interface LineForPayment {
  title: string;
  size_name: string;
  unit_price: number;
  quantity: number;
}

/** The cart fields, from the committed order only; an ampersand in a name becomes "and". */
export function paypalCartFields(
  order: OrderForPayment,
  lines: LineForPayment[],
  options: { business: string; publicUrl: string },
): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ['cmd', '_cart'],
    ['upload', '1'],
    ['business', options.business],
    ['currency_code', 'GBP'],
    ['tax_cart', '0.00'],
    // The spec lists both shipping and handling_cart as the delivery price; PayPal adds both, so
    // the delivery is charged once, as the cart's handling.
    ['handling_cart', penceToDecimal(order.delivery_price)],
    ['discount_amount_cart', penceToDecimal(order.discount_amount)],
    ['invoice', String(order.order_number)],
    ['custom', order.order_code],
    ['notify_url', `${options.publicUrl}/api/payments/paypal/ipn`],
    ['return', `${options.publicUrl}/checkout-confirm`],
    ['cancel_return', `${options.publicUrl}/payment-declined`],
    ['no_shipping', '1'],
  ];
  lines.forEach((line, i) => {
    const name = `${line.title} (${line.size_name})`.replace(/&/g, 'and').slice(0, 127);
    fields.push(
      [`item_name_${i + 1}`, name],
      [`amount_${i + 1}`, penceToDecimal(line.unit_price)],
      [`quantity_${i + 1}`, String(line.quantity)],
    );
  });
  return fields;
}

/** PayPal's statuses for money going back to the customer, and for a reversal that was undone. */
export const refundStatuses = {
  Refunded: 'refund',
  Reversed: 'reversal',
  Canceled_Reversal: 'reversal_cancelled',
} as const;
export type RefundKind = (typeof refundStatuses)[keyof typeof refundStatuses];
