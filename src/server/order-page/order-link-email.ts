import { VIEW_YOUR_ORDER } from '../cancellation/cancellation-emails.ts';
import type { MailMessage } from '../mail/mailer.ts';

/**
 * The e-mail that carries a new link to the customer's order page after staff revoked the old
 * ones (docs/back-office.md#orders): a notice with a button to the page. The queue keeps the
 * order's number and new link version, never the link: its key is a secret, made when the message
 * is sent (message-templates.ts, orderPage).
 */
export function newOrderLinkEmail(
  order: { order_number: number; firstname: string; lastname: string; email: string },
  linkVersion: number,
): MailMessage {
  return {
    to: order.email,
    subject: `A new link to your order ${order.order_number}`,
    template: {
      name: 'notice',
      data: {
        heading: `A new link to your order ${order.order_number}`,
        greeting: `Dear ${order.firstname} ${order.lastname},`,
        paragraphs: [
          `We have replaced the link to your order ${order.order_number}'s page. The links in our earlier e-mails no longer open it.`,
          'Your order’s page shows its progress and has its invoice to download.',
        ],
        orderPage: { orderNumber: order.order_number, linkVersion, label: VIEW_YOUR_ORDER },
        after: [
          'Please keep this e-mail to yourself: anyone who has its link can see your order. If you did not expect it, please contact us.',
        ],
      },
    },
  };
}
