import type { MailMessage } from '../mail/mailer.ts';

/**
 * The e-mail that carries a new link to the customer's order page after staff revoked the old
 * ones (docs/back-office.md#orders): paragraphs, as every shop e-mail starts from.
 */
export function newOrderLinkEmail(
  order: { order_number: number; firstname: string; lastname: string; email: string },
  pageUrl: string,
): MailMessage {
  return {
    to: order.email,
    subject: `A new link to your order ${order.order_number}`,
    paragraphs: [
      `Dear ${order.firstname} ${order.lastname},`,
      `We have replaced the link to your order ${order.order_number}'s page. The links in our earlier e-mails no longer open it.`,
      `Your order's page, where you can see its progress and download its invoice: ${pageUrl}`,
      'Please keep this link to yourself: anyone who has it can see your order. If you did not expect this e-mail, please contact us.',
    ],
  };
}
