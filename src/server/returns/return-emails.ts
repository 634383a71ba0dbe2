import { formatPence } from '../../contract/money.ts';
import { VIEW_YOUR_ORDER } from '../cancellation/cancellation-emails.ts';
import type { ReturnReason } from '../../contract/returns.ts';
import type { MailMessage } from '../mail/mailer.ts';

/**
 * The shopper's e-mails at each step of a return (docs/rules.md#returns): notices with a button to
 * the order's page, where the return can be followed.
 */

const ukDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });
/** "12 December 2026": a day as a British shopper writes it, on the UK's calendar. */
const ukDate = (iso: string) => ukDay.format(new Date(iso));

interface ReturnMailFacts {
  email: string;
  firstname: string;
  orderNumber: number;
  /** The order's link version: the page's link is signed with it when the message is sent. */
  linkVersion: number;
  raNumber: string;
  /** "2 × Tabla (Small)" lines. */
  items: string[];
}

/**
 * A step's notice. The queue keeps the order's number and link version, never the page's link:
 * its key is a secret, made when the message is sent (message-templates.ts, orderPage).
 */
function returnNotice(facts: ReturnMailFacts, subject: string, heading: string, paragraphs: string[]): MailMessage {
  return {
    to: facts.email,
    subject,
    template: {
      name: 'notice',
      data: {
        heading,
        greeting: `Dear ${facts.firstname},`,
        paragraphs,
        orderPage: { orderNumber: facts.orderNumber, linkVersion: facts.linkVersion, label: VIEW_YOUR_ORDER },
        after: ["You can follow your return on your order's page."],
      },
    },
  };
}

export function returnRequestedEmail(facts: ReturnMailFacts): MailMessage {
  return returnNotice(
    facts,
    `We have your return request ${facts.raNumber} for order ${facts.orderNumber}`,
    `Your return request ${facts.raNumber}`,
    [
      `Thank you: we have your request to return these items from order ${facts.orderNumber}. Its returns authorisation number is ${facts.raNumber}.`,
      facts.items.join('\n'),
      'We will look at it shortly and e-mail you with what to do next. Please do not send anything back until we have authorised the return.',
    ],
  );
}

/**
 * The cost of sending goods back: the shopper's for a change of mind (regulation 34(2) lets the
 * shop say so, as its terms do); the shop's for goods that were faulty, damaged or not what was
 * ordered (Consumer Rights Act 2015).
 */
const postageFor = (reason: ReturnReason) =>
  reason === 'changed_mind'
    ? 'You pay the postage to send them back; we recommend a tracked service, as the parcel is yours until it reaches us. Keep your proof of postage.'
    : 'As the goods were not as they should be, we refund your postage too: keep the receipt and send us a copy (a reply to this e-mail will do).';

export function returnAuthorisedEmail(
  facts: ReturnMailFacts,
  returnAddress: string,
  reason: ReturnReason,
): MailMessage {
  return returnNotice(
    facts,
    `Return ${facts.raNumber} authorised: how to send it back`,
    `Your return ${facts.raNumber} is authorised`,
    [
      `We have authorised your return ${facts.raNumber} for order ${facts.orderNumber}:`,
      facts.items.join('\n'),
      `Please pack the items securely, write the returns authorisation number ${facts.raNumber} on a note inside the parcel, and send it to:\n${returnAddress}`,
      postageFor(reason),
      'We refund you within 14 days of receiving the goods, by the way you paid.',
    ],
  );
}

export function returnRefusedEmail(facts: ReturnMailFacts, why: string): MailMessage {
  return returnNotice(
    facts,
    `Return ${facts.raNumber} for order ${facts.orderNumber}`,
    `Your return ${facts.raNumber}`,
    [
      `We are sorry: we cannot accept your return ${facts.raNumber} for order ${facts.orderNumber}.`,
      `Why: ${why}`,
      'If you think this is wrong, reply to this e-mail and we will look at it again.',
    ],
  );
}

export function returnReceivedEmail(facts: ReturnMailFacts, refundDueAt: string): MailMessage {
  return returnNotice(
    facts,
    `We have received your return ${facts.raNumber}`,
    `Your return ${facts.raNumber} has reached us`,
    [
      `Your return ${facts.raNumber} for order ${facts.orderNumber} has reached us:`,
      facts.items.join('\n'),
      `We will refund you by ${ukDate(refundDueAt)} at the latest, by the way you paid, and e-mail you when we have.`,
    ],
  );
}

/**
 * Sent only when the return is closed with nothing to refund (the deduction took it all): a refund
 * has its own e-mail (refundEmail), which names the return, so the shopper gets one, not two.
 */
export function returnClosedWithoutRefundEmail(
  facts: ReturnMailFacts,
  refund: { deduction: number; deductionReason: string | null },
): MailMessage {
  return returnNotice(facts, `Your return ${facts.raNumber} is closed`, `Your return ${facts.raNumber} is closed`, [
    `We have received and checked your return ${facts.raNumber} (order ${facts.orderNumber}).`,
    // Nothing is left either because a deduction took the goods' price, or because the order was
    // refunded in full before: only the first has a deduction to explain.
    ...(refund.deduction > 0
      ? [
          `We deducted ${formatPence(refund.deduction)} because the goods' value was diminished: ${refund.deductionReason ?? ''}`,
          'That leaves nothing to refund.',
        ]
      : ['There is nothing left to refund for it: the order was refunded before.']),
  ]);
}

/** To the shop: a return's refund was never made (the sweep learned it), so the return is received again. */
export function returnRefundNotMadeToShop(
  to: string,
  facts: { raNumber: string; orderNumber: number; amount: number },
  adminUrl: string,
): MailMessage {
  return {
    to,
    subject: `Return ${facts.raNumber}: the refund was not made, refund it again`,
    paragraphs: [
      `The payment provider has no record of the ${formatPence(facts.amount)} refund for return ${facts.raNumber} of order ${facts.orderNumber}, so nothing was refunded.`,
      'The return is back in the queue as received: refund it again.',
      `The return: ${adminUrl}`,
    ],
  };
}
