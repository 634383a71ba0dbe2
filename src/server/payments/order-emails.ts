import { formatPence } from '../../contract/money.ts';
import { shownTransactionId } from '../../contract/transaction-id.ts';
import type { MailMessage } from '../mail/mailer.ts';

/** The order e-mails (docs/rules.md#mail): confirmation when paid, and payment failed. */

interface OrderForEmail {
  order_number: number;
  order_code: string;
  firstname: string;
  lastname: string;
  email: string;
  items_total: number;
  discount_amount: number;
  delivery_price: number;
  delivery_method_name: string;
  total_vat: number;
  total_including_delivery: number;
  transaction_id: string | null;
  billing_line1: string;
  billing_line2: string;
  billing_town_city: string;
  billing_postcode: string;
  delivery_line1: string;
  delivery_line2: string;
  delivery_town_city: string;
  delivery_postcode: string;
  /** Sent to the delivery address, or collected from the shop (migration 0028). */
  delivery_kind: 'delivery' | 'collection';
}

interface LineForEmail {
  title: string;
  size_name: string;
  quantity: number;
  line_total: number;
}

const address = (...parts: string[]) => parts.filter(Boolean).join(', ');

export function orderConfirmationEmail(
  order: OrderForEmail,
  lines: LineForEmail[],
  /** The signed link to the order's VAT invoice (docs/rules.md#invoices-and-credit-notes). */
  invoiceUrl?: string,
): MailMessage {
  const collected = order.delivery_kind === 'collection';
  return {
    to: order.email,
    subject: `Your order ${order.order_number} is confirmed`,
    paragraphs: [
      `Dear ${order.firstname} ${order.lastname},`,
      `Thank you for your order. Your payment has been taken (transaction ${shownTransactionId(order.transaction_id ?? '')}) and we are ${collected ? 'getting your order ready. We will e-mail you when it is ready to collect.' : 'preparing your order for delivery.'}`,
      lines.map((l) => `${l.quantity} x ${l.title} (${l.size_name}): ${formatPence(l.line_total)}`).join('\n'),
      [
        `Items: ${formatPence(order.items_total)}`,
        ...(order.discount_amount > 0 ? [`Discount: -${formatPence(order.discount_amount)}`] : []),
        `Delivery, ${order.delivery_method_name}: ${formatPence(order.delivery_price)}`,
        `Total paid: ${formatPence(order.total_including_delivery)} (including VAT of ${formatPence(order.total_vat)})`,
      ].join('\n'),
      collected
        ? `To collect: ${order.delivery_method_name}`
        : `Delivery address: ${address(order.delivery_line1, order.delivery_line2, order.delivery_town_city, order.delivery_postcode)}`,
      `Billing address: ${address(order.billing_line1, order.billing_line2, order.billing_town_city, order.billing_postcode)}`,
      ...(invoiceUrl ? [`Your VAT invoice: ${invoiceUrl}`] : []),
    ],
  };
}

export function paymentFailedEmail(order: OrderForEmail, publicUrl: string): MailMessage {
  return {
    to: order.email,
    subject: `Your payment for order ${order.order_number} did not go through`,
    paragraphs: [
      `Dear ${order.firstname} ${order.lastname},`,
      `Your payment of ${formatPence(order.total_including_delivery)} for order ${order.order_number} was not completed, so nothing has been taken. We are keeping your items for you for a while.`,
      `To try again, open this link: ${publicUrl}/order-recovery/${order.order_code}`,
    ],
  };
}

/**
 * Sent with each fulfilment staff dispatch (docs/back-office.md#orders): the units it holds, how
 * it travels (each tracked parcel with its tracking link where the carrier has one, or the
 * untracked service), and what is still to come.
 */
export function dispatchEmail(
  order: Pick<
    OrderForEmail,
    | 'order_number'
    | 'firstname'
    | 'lastname'
    | 'email'
    | 'delivery_line1'
    | 'delivery_line2'
    | 'delivery_town_city'
    | 'delivery_postcode'
  >,
  fulfilment: {
    sent: ReadonlyArray<{ title: string; sizeName: string; quantity: number }>;
    toCome: ReadonlyArray<{ title: string; sizeName: string; quantity: number }>;
    parcels: ReadonlyArray<{ carrier: string; trackingNumber: string; trackingUrl: string | null }>;
    untrackedService: string | null;
  },
): MailMessage {
  const list = (lines: typeof fulfilment.sent) =>
    lines.map((line) => `${line.quantity} x ${line.title} (${line.sizeName})`).join('\n');
  const part = fulfilment.toCome.length > 0;
  const parcels = fulfilment.parcels;
  const how = fulfilment.untrackedService
    ? [`It was sent by ${fulfilment.untrackedService}, untracked.`]
    : parcels.length === 1
      ? [
          `It has left us with ${parcels[0]!.carrier}. Its tracking number is ${parcels[0]!.trackingNumber}.`,
          ...(parcels[0]!.trackingUrl ? [`You can follow it here: ${parcels[0]!.trackingUrl}`] : []),
        ]
      : [
          `It has left us in ${parcels.length} parcels:`,
          parcels
            .map(
              (parcel, i) =>
                `Parcel ${i + 1}: ${parcel.carrier}, tracking number ${parcel.trackingNumber}${parcel.trackingUrl ? ` (${parcel.trackingUrl})` : ''}`,
            )
            .join('\n'),
        ];
  return {
    to: order.email,
    subject: part
      ? `Part of your order ${order.order_number} is on its way`
      : `Your order ${order.order_number} is on its way`,
    paragraphs: [
      `Dear ${order.firstname} ${order.lastname},`,
      part
        ? `Good news: part of your order ${order.order_number} is on its way to you:`
        : `Good news: your order ${order.order_number} is on its way to you:`,
      list(fulfilment.sent),
      ...how,
      ...(part ? ['Still to come, sent separately:', list(fulfilment.toCome)] : []),
      `It is on its way to: ${address(order.delivery_line1, order.delivery_line2, order.delivery_town_city, order.delivery_postcode)}`,
    ],
  };
}

/**
 * Sent when staff make a paid collection order ready (docs/back-office.md#orders): the customer
 * may come for it, with the order number to give at the counter.
 */
export function readyForCollectionEmail(
  order: Pick<OrderForEmail, 'order_number' | 'firstname' | 'lastname' | 'email' | 'delivery_method_name'>,
): MailMessage {
  return {
    to: order.email,
    subject: `Your order ${order.order_number} is ready to collect`,
    paragraphs: [
      `Dear ${order.firstname} ${order.lastname},`,
      `Good news: your order ${order.order_number} is packed and ready for you to collect (${order.delivery_method_name}).`,
      `Please bring this e-mail or your order number, ${order.order_number}, when you come for it.`,
    ],
  };
}
