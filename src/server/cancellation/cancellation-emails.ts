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
