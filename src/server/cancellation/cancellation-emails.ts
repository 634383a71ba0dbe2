import { formatPence } from '../../contract/money.ts';
import type { MailMessage } from '../mail/mailer.ts';

/**
 * The two e-mails a shopper's cancellation sends (docs/rules.md#cancelling-before-dispatch): to the
 * shopper, what was cancelled, the refund and how it goes back; to the shop's new-order address, so
 * whoever packs the order stops. The shopper's is a notice with a button to the order page; the
 * shop's is paragraphs (what the shopper typed in it is never linked: layout.ts Lines).
 */

export interface CancellationMail {
  orderNumber: number;
  whole: boolean;
  cancelled: ReadonlyArray<{ title: string; sizeName: string; quantity: number }>;
  amount: number;
  /** "to the card you paid with". */
  refundsTo: string;
  /** The provider has not confirmed the refund yet: it is on its way. */
  pending: boolean;
}

const unitsText = (mail: CancellationMail) =>
  mail.cancelled.map((line) => `${line.quantity} x ${line.title} (${line.sizeName})`).join('\n');

/** The order page's button in the shopper's cancellation and return e-mails. */
export const VIEW_YOUR_ORDER = 'View your order';

/**
 * Sent only when the refund is not confirmed yet: a refund made at once has its own e-mail
 * (refundEmail), which names the cancellation, so the shopper gets one message, not two.
 */
export function cancellationEmailToShopper(
  order: { email: string; firstname: string; order_number: number; link_version: number },
  mail: CancellationMail,
): MailMessage {
  return {
    to: order.email,
    subject: mail.whole
      ? `Your order ${mail.orderNumber} is cancelled`
      : `Items cancelled from your order ${mail.orderNumber}`,
    template: {
      name: 'notice',
      data: {
        heading: mail.whole ? `Your order ${mail.orderNumber} is cancelled` : `Items cancelled from your order`,
        greeting: `Dear ${order.firstname},`,
        paragraphs: [
          mail.whole
            ? `As you asked, we have cancelled your order ${mail.orderNumber}:`
            : `As you asked, we have cancelled these items from your order ${mail.orderNumber}:`,
          unitsText(mail),
          mail.pending
            ? `Your refund of ${formatPence(mail.amount)} is on its way ${mail.refundsTo}; your payment provider has not confirmed it yet. It usually shows within 5 to 10 working days.`
            : `We have refunded ${formatPence(mail.amount)} ${mail.refundsTo}${mail.whole ? ', including the delivery charge' : ''}. It usually shows within 5 to 10 working days.`,
          ...(mail.whole ? [] : ['The rest of your order will be sent as usual.']),
        ],
        // The link is made when the message is sent: the queue never keeps the page's secret key.
        orderPage: { orderNumber: order.order_number, linkVersion: order.link_version, label: VIEW_YOUR_ORDER },
      },
    },
  };
}

/** The shopper's words for where the money goes, as the shop reads them: "your" is the customer's. */
const customers = (refundsTo: string) =>
  refundsTo.replace(/\byour\b/g, "the customer's").replace(/\byou\b/g, 'the customer');

export function cancellationAlertToShop(
  to: string,
  order: { firstname: string; lastname: string },
  mail: CancellationMail,
  adminUrl: string,
): MailMessage {
  return {
    to,
    subject: mail.whole
      ? `Order ${mail.orderNumber} cancelled by the customer: do not send it`
      : `Items of order ${mail.orderNumber} cancelled by the customer: do not send them`,
    paragraphs: [
      `${order.firstname} ${order.lastname} cancelled ${mail.whole ? 'the whole order' : 'these items'} from the order page:`,
      unitsText(mail),
      mail.pending
        ? `A refund of ${formatPence(mail.amount)} was asked of the payment provider, which has not confirmed it yet.`
        : `${formatPence(mail.amount)} was refunded ${customers(mail.refundsTo)}.`,
      mail.whole ? 'Do not send this order.' : 'Do not send these items; the rest of the order is still to dispatch.',
      `The order: ${adminUrl}`,
    ],
  };
}

/**
 * A cancellation undone: its refund was never made (the provider, asked again, had no record of
 * it), so nothing was cancelled and the units are to send again. The shopper, who was told the
 * refund was on its way, is told it is not and what happens now; the shop, to send the items.
 */
export interface CancellationUndone {
  orderNumber: number;
  units: ReadonlyArray<{ title: string; sizeName: string; quantity: number }>;
  amount: number;
}

const undoneUnits = (undone: CancellationUndone) =>
  undone.units.map((line) => `${line.quantity} x ${line.title} (${line.sizeName})`).join('\n');

export function cancellationUndoneToShopper(
  order: { email: string; firstname: string; order_number: number; link_version: number },
  undone: CancellationUndone,
): MailMessage {
  return {
    to: order.email,
    subject: `Your items were not cancelled from order ${undone.orderNumber}`,
    template: {
      name: 'notice',
      data: {
        heading: 'Your cancellation did not go through',
        greeting: `Dear ${order.firstname},`,
        paragraphs: [
          `Your payment provider did not make the refund of ${formatPence(undone.amount)} for the items you cancelled, so nothing has been refunded and these items were not cancelled:`,
          undoneUnits(undone),
          'We will send them as usual. If you still want to cancel them, you can do so from your order page until they are sent, or reply to this e-mail and we will help.',
        ],
        orderPage: { orderNumber: order.order_number, linkVersion: order.link_version, label: VIEW_YOUR_ORDER },
      },
    },
  };
}

export function cancellationUndoneToShop(to: string, undone: CancellationUndone, adminUrl: string): MailMessage {
  return {
    to,
    subject: `Cancellation of order ${undone.orderNumber} undone: the refund was not made, send the items`,
    paragraphs: [
      `The payment provider has no record of the ${formatPence(undone.amount)} refund for the customer's cancellation of these items, so they were not cancelled:`,
      undoneUnits(undone),
      'They are to dispatch again; the customer has been told.',
      `The order: ${adminUrl}`,
    ],
  };
}
