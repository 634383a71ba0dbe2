import { formatPence } from '../../contract/money.ts';
import type { MailMessage } from '../mail/mailer.ts';

/** The shopper's e-mails at each step of a return (docs/rules.md#returns), as paragraphs. */

interface ReturnMailFacts {
  email: string;
  firstname: string;
  orderNumber: number;
  raNumber: string;
  /** "2 × Tabla (Small)" lines. */
  items: string[];
  orderPageUrl?: string | undefined;
}

const page = (facts: ReturnMailFacts) =>
  facts.orderPageUrl ? [`You can follow your return on your order's page: ${facts.orderPageUrl}`] : [];

export function returnRequestedEmail(facts: ReturnMailFacts): MailMessage {
  return {
    to: facts.email,
    subject: `We have your return request ${facts.raNumber} for order ${facts.orderNumber}`,
    paragraphs: [
      `Dear ${facts.firstname},`,
      `Thank you: we have your request to return these items from order ${facts.orderNumber}. Its returns authorisation number is ${facts.raNumber}.`,
      facts.items.join('\n'),
      'We will look at it shortly and e-mail you with what to do next. Please do not send anything back until we have authorised the return.',
      ...page(facts),
    ],
  };
}

export function returnAuthorisedEmail(facts: ReturnMailFacts, returnAddress: string): MailMessage {
  return {
    to: facts.email,
    subject: `Return ${facts.raNumber} authorised: how to send it back`,
    paragraphs: [
      `Dear ${facts.firstname},`,
      `We have authorised your return ${facts.raNumber} for order ${facts.orderNumber}:`,
      facts.items.join('\n'),
      `Please pack the items securely, write the returns authorisation number ${facts.raNumber} on a note inside the parcel, and send it to:\n${returnAddress}`,
      'Keep your proof of postage. We refund you within 14 days of receiving the goods, by the way you paid.',
      ...page(facts),
    ],
  };
}

export function returnRefusedEmail(facts: ReturnMailFacts, why: string): MailMessage {
  return {
    to: facts.email,
    subject: `Return ${facts.raNumber} for order ${facts.orderNumber}`,
    paragraphs: [
      `Dear ${facts.firstname},`,
      `We are sorry: we cannot accept your return ${facts.raNumber} for order ${facts.orderNumber}.`,
      `Why: ${why}`,
      'If you think this is wrong, reply to this e-mail and we will look at it again.',
      ...page(facts),
    ],
  };
}

export function returnReceivedEmail(facts: ReturnMailFacts, refundDueAt: string): MailMessage {
  return {
    to: facts.email,
    subject: `We have received your return ${facts.raNumber}`,
    paragraphs: [
      `Dear ${facts.firstname},`,
      `Your return ${facts.raNumber} for order ${facts.orderNumber} has reached us:`,
      facts.items.join('\n'),
      `We will refund you by ${refundDueAt.slice(0, 10)} at the latest, by the way you paid, and e-mail you when we have.`,
      ...page(facts),
    ],
  };
}

export function returnRefundedEmail(
  facts: ReturnMailFacts,
  refund: { amount: number; deduction: number; deductionReason: string | null },
): MailMessage {
  return {
    to: facts.email,
    subject: `Your return ${facts.raNumber} is refunded`,
    paragraphs: [
      `Dear ${facts.firstname},`,
      // A deduction may take all the goods' price: then nothing was sent, and the e-mail says so
      // rather than announcing a refund of £0.00.
      refund.amount > 0
        ? `We have refunded ${formatPence(refund.amount)} for your return ${facts.raNumber} (order ${facts.orderNumber}), by the way you paid. It may take a few days to show on your statement.`
        : `We have your return ${facts.raNumber} (order ${facts.orderNumber}); there is nothing left to refund for it.`,
      ...(refund.deduction > 0
        ? [
            `We deducted ${formatPence(refund.deduction)} because the goods' value was diminished: ${refund.deductionReason ?? ''}`,
          ]
        : []),
      ...page(facts),
    ],
  };
}
