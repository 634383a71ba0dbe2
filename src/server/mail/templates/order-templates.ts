import { Column } from '@react-email/column';
import { Img } from '@react-email/img';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { createElement as h, type ReactNode } from 'react';
import { formatPence } from '../../../contract/money.ts';
import {
  A,
  addressLines,
  ButtonLink,
  colours,
  H1,
  H2,
  Hr,
  Layout,
  Lines,
  P,
  Small,
  styles,
  type MailBrand,
} from './layout.ts';

/**
 * The order e-mails (docs/rules.md#mail): each names the order and carries the button to its page
 * (the signed link of orders/order-links.ts, made from the order's number and link version).
 */

interface OrderRef {
  orderNumber: number;
  /** The order's link version when the message was made: its page's link is signed with it. */
  linkVersion: number;
  /** "Asha Kaur". */
  customerName: string;
}

export interface MailLine {
  title: string;
  sizeName: string;
  quantity: number;
  /** Pence, for the line's quantity. */
  lineTotal?: number;
  /** The product's main photo, a path on the shop's own site (/images/photos/...), when it has one. */
  photoPath?: string;
}

export interface OrderConfirmationData extends OrderRef {
  /** When it was paid (ISO). */
  orderedAt: string;
  /** The payment's reference as the shopper's statement shows it. */
  transactionId: string;
  collected: boolean;
  deliveryMethod: string;
  lines: MailLine[];
  itemsTotal: number;
  discount: number;
  deliveryPrice: number;
  totalVat: number;
  total: number;
  /** Address lines; empty for a collection. */
  deliveryAddress: string[];
  billingAddress: string[];
  /** The signed link to its VAT invoice. */
  invoiceUrl?: string;
}

export interface DispatchData extends OrderRef {
  sent: MailLine[];
  toCome: MailLine[];
  parcels: Array<{ carrier: string; trackingNumber: string; trackingUrl: string | null }>;
  untrackedService: string | null;
  deliveryAddress: string[];
}

export interface ReadyForCollectionData extends OrderRef {
  deliveryMethod: string;
}

export interface RefundData extends OrderRef {
  /** Pence. */
  amount: number;
  /** How it goes back: to the card, to the PayPal account, or by the shop directly. */
  via: 'card' | 'paypal' | 'shop';
  /** Its credit note's number, when one was issued: the e-mail links to it (signed when sent). */
  creditNoteNumber?: number;
  /**
   * Why, in the shop's words: staff's note ("Refund for 1 x Tabla set"), a cancellation ("Order
   * cancelled by the customer") or a return ("Return RA-100042-1").
   */
  reason?: string;
  /** The units the refund is for, back in stock with it (a cancellation's, a return's). */
  returned?: MailLine[];
}

const orderUrl = (brand: MailBrand, order: OrderRef) =>
  `${brand.publicUrl}${brand.orderPath(order.orderNumber, order.linkVersion)}`;

function OrderButton(props: { brand: MailBrand; order: OrderRef }) {
  return h(ButtonLink, { href: orderUrl(props.brand, props.order), label: `View order ${props.order.orderNumber}` });
}

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/London',
  });

/** The lines, a picture beside each where the product has one. */
function Lines_(props: { brand: MailBrand; lines: MailLine[] }) {
  return h(
    Section,
    { style: { margin: '0 0 16px' } },
    ...props.lines.map((line, i) =>
      h(Row, {
        key: i,
        style: { borderBottom: `1px solid ${colours.border}` },
        children: [
          h(
            Column,
            { key: 'photo', style: { width: '72px', padding: '8px 8px 8px 0', verticalAlign: 'top' } },
            line.photoPath
              ? h(Img, {
                  src: `${props.brand.publicUrl}${line.photoPath}`,
                  alt: '',
                  width: 64,
                  height: 64,
                  style: { width: '64px', height: '64px', objectFit: 'cover', borderRadius: '4px' },
                })
              : null,
          ),
          h(
            Column,
            { key: 'line', style: { padding: '8px 0', verticalAlign: 'top' } },
            h(P, { style: { margin: 0 } }, `${line.quantity} x ${line.title} (${line.sizeName})`),
          ),
          line.lineTotal === undefined
            ? null
            : h(
                Column,
                {
                  key: 'total',
                  style: { padding: '8px 0 8px 8px', verticalAlign: 'top', textAlign: 'right', whiteSpace: 'nowrap' },
                },
                h(P, { style: { margin: 0 } }, formatPence(line.lineTotal)),
              ),
        ],
      }),
    ),
  );
}

function Address(props: { title: string; lines: string[] }) {
  return h(P, null, h('strong', null, `${props.title}: `), props.lines.join(', '));
}

export function OrderConfirmationMail(props: { brand: MailBrand; data: OrderConfirmationData }): ReactNode {
  const { brand, data } = props;
  const { shop } = brand;
  return h(
    Layout,
    { brand, preview: `Thank you for your order ${data.orderNumber}.` },
    h(H1, null, `Your order ${data.orderNumber} is confirmed`),
    h(P, null, `Dear ${data.customerName},`),
    h(
      P,
      null,
      `Thank you for your order. Your payment has been taken (transaction ${data.transactionId}) and we are ${data.collected ? 'getting your order ready. We will e-mail you when it is ready to collect.' : 'preparing your order for delivery.'}`,
    ),
    h(P, null, `Order number: ${data.orderNumber}`, h('br'), `Order date: ${dateOf(data.orderedAt)}`),
    h(OrderButton, { brand, order: data }),
    h(H2, null, 'Your order'),
    h(Lines_, { brand, lines: data.lines }),
    h(
      P,
      null,
      h(Lines, {
        text: [
          `Items: ${formatPence(data.itemsTotal)}`,
          ...(data.discount > 0 ? [`Discount: -${formatPence(data.discount)}`] : []),
          `Delivery, ${data.deliveryMethod}: ${formatPence(data.deliveryPrice)}`,
        ].join('\n'),
      }),
    ),
    h(
      P,
      { style: { fontWeight: 'bold' } },
      `Total paid: ${formatPence(data.total)} (including VAT of ${formatPence(data.totalVat)})`,
    ),
    h(Small, null, `${shop.name}, VAT number ${brand.vatNumber}`),
    data.collected
      ? h(P, null, h('strong', null, 'To collect: '), `${data.deliveryMethod}, from ${addressLines(shop).join(', ')}`)
      : h(Address, { title: 'Delivery address', lines: data.deliveryAddress }),
    h(Address, { title: 'Billing address', lines: data.billingAddress }),
    data.invoiceUrl
      ? h(
          P,
          null,
          'Your VAT invoice: ',
          h(A, { href: data.invoiceUrl, addressInText: true }, 'download the invoice (PDF)'),
        )
      : null,
    h(Hr, { style: { borderColor: colours.border, margin: '24px 0' } }),
    h(CancellationInformation, { brand, orderUrl: orderUrl(brand, data) }),
  );
}

/**
 * The cancellation information and the model cancellation form that the Consumer Contracts
 * Regulations 2013 ask for in a durable medium (Schedule 2, parts A and B), in the shop's words.
 */
function CancellationInformation(props: { brand: MailBrand; orderUrl: string }) {
  const { shop } = props.brand;
  const address = addressLines(shop).join(', ');
  return h(
    Section,
    null,
    h(H2, null, 'Your right to cancel'),
    h(
      Small,
      null,
      'You may cancel this order within 14 days without giving any reason. The 14 days end 14 days after the day you (or someone you name, other than the carrier) receive the goods; for an order in several parcels, the day you receive the last of them.',
    ),
    h(
      Small,
      null,
      'To cancel, tell us of your decision by a clear statement: from ',
      h(A, { href: props.orderUrl }, 'your order page'),
      `, by e-mail to ${shop.email}, by post to ${shop.name}, ${address}, or by telephone on ${shop.phone}. You may use the model cancellation form below, but you do not have to. To keep to the deadline, it is enough to send your message before the 14 days end.`,
    ),
    h(
      Small,
      null,
      'If you cancel, we will refund everything you paid, including the cost of standard delivery (not any extra you paid for a faster or dearer delivery), within 14 days of the day we receive the goods back, or the day you show us you have sent them back if that is sooner; if nothing has been sent yet, within 14 days of the day you tell us. We refund by the same means you paid, at no charge to you, and there is no restocking fee. Please send the goods back within 14 days of telling us; you pay the direct cost of returning them. You are liable only for any loss in their value from handling them more than needed to see what they are and how they work.',
    ),
    h(Small, null, 'Goods made to your specification or clearly personalised cannot be cancelled once made.'),
    h(H2, null, 'Model cancellation form'),
    h(Small, null, '(Complete and return this form only if you wish to cancel the contract.)'),
    h(
      Small,
      null,
      h(Lines, {
        text: [
          `To: ${shop.name}, ${address}, ${shop.email}`,
          'I/We [*] hereby give notice that I/We [*] cancel my/our [*] contract of sale of the following goods [*]:',
          'Ordered on [*] / received on [*]:',
          'Name of consumer(s):',
          'Address of consumer(s):',
          'Signature of consumer(s) (only if this form is notified on paper):',
          'Date:',
          '[*] Delete as appropriate.',
        ].join('\n'),
      }),
    ),
  );
}

export function DispatchMail(props: { brand: MailBrand; data: DispatchData }): ReactNode {
  const { brand, data } = props;
  const part = data.toCome.length > 0;
  const parcels = data.parcels;
  const how: ReactNode[] = data.untrackedService
    ? [h(P, { key: 'u' }, `It was sent by ${data.untrackedService}, untracked.`)]
    : parcels.length === 1
      ? [
          h(
            P,
            { key: 't' },
            `It has left us with ${parcels[0]!.carrier}. Its tracking number is ${parcels[0]!.trackingNumber}.`,
          ),
          parcels[0]!.trackingUrl
            ? h(ButtonLink, { key: 'b', href: parcels[0]!.trackingUrl, label: `Track it with ${parcels[0]!.carrier}` })
            : null,
        ]
      : [
          h(P, { key: 'n' }, `It has left us in ${parcels.length} parcels:`),
          ...parcels.map((parcel, i) =>
            h(
              P,
              { key: `p${i}` },
              `Parcel ${i + 1}: ${parcel.carrier}, tracking number ${parcel.trackingNumber}`,
              ...(parcel.trackingUrl ? [' (', h(A, { href: parcel.trackingUrl }, `track parcel ${i + 1}`), ')'] : []),
            ),
          ),
        ];
  return h(
    Layout,
    { brand, preview: `Your order ${data.orderNumber} is on its way.` },
    h(
      H1,
      null,
      part ? `Part of your order ${data.orderNumber} is on its way` : `Your order ${data.orderNumber} is on its way`,
    ),
    h(P, null, `Dear ${data.customerName},`),
    h(
      P,
      null,
      part
        ? `Good news: part of your order ${data.orderNumber} is on its way to you:`
        : `Good news: your order ${data.orderNumber} is on its way to you:`,
    ),
    h(Lines_, { brand, lines: data.sent }),
    ...how,
    ...(part
      ? [h(P, { key: 'c' }, 'Still to come, sent separately:'), h(Lines_, { key: 'cl', brand, lines: data.toCome })]
      : []),
    h(P, null, `It is on its way to: ${data.deliveryAddress.join(', ')}`),
    h(OrderButton, { brand, order: data }),
  );
}

export function ReadyForCollectionMail(props: { brand: MailBrand; data: ReadyForCollectionData }): ReactNode {
  const { brand, data } = props;
  const { shop } = brand;
  return h(
    Layout,
    { brand, preview: `Your order ${data.orderNumber} is ready to collect.` },
    h(H1, null, `Your order ${data.orderNumber} is ready to collect`),
    h(P, null, `Dear ${data.customerName},`),
    h(
      P,
      null,
      `Good news: your order ${data.orderNumber} is packed and ready for you to collect (${data.deliveryMethod}).`,
    ),
    h(P, null, h('strong', null, 'Where: '), `${shop.name}, ${addressLines(shop).join(', ')}`),
    h(
      P,
      null,
      `Please bring this e-mail or your order number, ${data.orderNumber}, when you come for it. Questions? Telephone ${shop.phone}.`,
    ),
    h(OrderButton, { brand, order: data }),
  );
}

const refundRoute: Record<RefundData['via'], string> = {
  card: 'It goes back to the card you paid with; your bank may take a few working days to show it.',
  paypal: 'It goes back to your PayPal account, or to the card you paid with through PayPal.',
  shop: 'We made it to you ourselves, outside the card and PayPal pages; if it has not reached you, please get in touch.',
};

export function RefundMail(props: { brand: MailBrand; data: RefundData }): ReactNode {
  const { brand, data } = props;
  return h(
    Layout,
    { brand, preview: `We have refunded ${formatPence(data.amount)} for order ${data.orderNumber}.` },
    h(H1, null, `Your refund of ${formatPence(data.amount)}`),
    h(P, null, `Dear ${data.customerName},`),
    h(P, null, `We have refunded ${formatPence(data.amount)} for your order ${data.orderNumber}.`),
    data.reason ? h(P, null, data.reason) : null,
    data.returned?.length
      ? h(
          P,
          null,
          h(Lines, {
            text: data.returned.map((line) => `${line.quantity} x ${line.title} (${line.sizeName})`).join('\n'),
          }),
        )
      : null,
    h(P, null, refundRoute[data.via]),
    data.creditNoteNumber === undefined
      ? null
      : h(
          P,
          null,
          'Your credit note: ',
          h(
            A,
            {
              href: `${brand.publicUrl}${brand.creditNotePath(data.creditNoteNumber, data.linkVersion)}`,
              addressInText: true,
            },
            'download the credit note (PDF)',
          ),
        ),
    h(OrderButton, { brand, order: data }),
    h(Small, null, `Questions? Reply to this e-mail or telephone ${brand.shop.phone}.`),
  );
}

export { styles };
