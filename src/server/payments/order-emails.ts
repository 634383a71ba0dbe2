import type { Kysely } from 'kysely';
import { formatPence } from '../../contract/money.ts';
import { photoUrl } from '../../contract/photos.ts';
import { shownTransactionId } from '../../contract/transaction-id.ts';
import { listPhotos } from '../catalog/photos/photos.repository.ts';
import type { Database } from '../db/schema.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { MailLine, RefundData } from '../mail/templates/order-templates.ts';

export type RefundRoute = RefundData['via'];

/**
 * The order e-mails (docs/rules.md#mail): confirmation when paid, payment failed, each dispatch,
 * ready for collection, and each refund. Each answers a message with its template's data
 * (mail/templates/); the order ones carry the order page's link, made from the order's number and
 * link version when the message is sent.
 */

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
  /** Its order page's links are signed with it (migration 0031). */
  link_version: number;
  created_at: string;
  paid_at: string | null;
}

interface LineForEmail {
  title: string;
  size_name: string;
  quantity: number;
  line_total: number;
  /** The product's main photo on the shop's site (`linePhotos`), when it has one. */
  photoPath?: string;
}

const addressOf = (...parts: string[]) => parts.map((part) => part.trim()).filter(Boolean);
const nameOf = (order: Pick<OrderForEmail, 'firstname' | 'lastname'>) => `${order.firstname} ${order.lastname}`;

/** The widest a line's picture is drawn, at twice its 64 CSS pixels. */
const LINE_PHOTO_WIDTH = 128;

/**
 * Each product's main photo as a path on the shop's own site, for the lines' pictures: the
 * narrowest WebP at least 128 pixels wide (or the widest there is).
 */
export async function linePhotos(db: Kysely<Database>, productIds: number[]): Promise<Map<number, string>> {
  const { photos, variants } = await listPhotos(db, [...new Set(productIds)]);
  const paths = new Map<number, string>();
  for (const photo of photos) {
    if (paths.has(photo.product_id)) continue;
    const widths = variants
      .filter((v) => v.photo_id === photo.id && v.format === 'webp')
      .map((v) => v.width)
      .sort((a, b) => a - b);
    const width = widths.find((w) => w >= LINE_PHOTO_WIDTH) ?? widths.at(-1);
    if (width !== undefined) paths.set(photo.product_id, photoUrl(photo.photo_key, width, 'webp'));
  }
  return paths;
}

/** An order's lines with their pictures. */
export async function linesWithPhotos<Line extends LineForEmail & { product_id: number }>(
  db: Kysely<Database>,
  lines: Line[],
): Promise<Line[]> {
  const photos = await linePhotos(
    db,
    lines.map((line) => line.product_id),
  );
  return lines.map((line) => {
    const photoPath = photos.get(line.product_id);
    return photoPath ? { ...line, photoPath } : line;
  });
}

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
    template: {
      name: 'orderConfirmation',
      data: {
        orderNumber: order.order_number,
        linkVersion: order.link_version,
        customerName: nameOf(order),
        orderedAt: order.paid_at ?? order.created_at,
        transactionId: shownTransactionId(order.transaction_id ?? ''),
        collected,
        deliveryMethod: order.delivery_method_name,
        lines: lines.map((l) => ({
          title: l.title,
          sizeName: l.size_name,
          quantity: l.quantity,
          lineTotal: l.line_total,
          ...(l.photoPath ? { photoPath: l.photoPath } : {}),
        })),
        itemsTotal: order.items_total,
        discount: order.discount_amount,
        deliveryPrice: order.delivery_price,
        totalVat: order.total_vat,
        total: order.total_including_delivery,
        deliveryAddress: collected
          ? []
          : addressOf(order.delivery_line1, order.delivery_line2, order.delivery_town_city, order.delivery_postcode),
        billingAddress: addressOf(
          order.billing_line1,
          order.billing_line2,
          order.billing_town_city,
          order.billing_postcode,
        ),
        ...(invoiceUrl ? { invoiceUrl } : {}),
      },
    },
  };
}

export function paymentFailedEmail(order: OrderForEmail, publicUrl: string): MailMessage {
  return {
    to: order.email,
    subject: `Your payment for order ${order.order_number} did not go through`,
    template: {
      name: 'notice',
      data: {
        heading: 'Your payment did not go through',
        greeting: `Dear ${nameOf(order)},`,
        paragraphs: [
          `Your payment of ${formatPence(order.total_including_delivery)} for order ${order.order_number} was not completed, so nothing has been taken. We are keeping your items for you for a while.`,
        ],
        buttons: [{ label: 'Try the payment again', url: `${publicUrl}/order-recovery/${order.order_code}` }],
      },
    },
  };
}

type Units = ReadonlyArray<{ title: string; sizeName: string; quantity: number }>;
const mailLines = (lines: Units): MailLine[] =>
  lines.map((line) => ({ title: line.title, sizeName: line.sizeName, quantity: line.quantity }));

/**
 * Sent with each fulfilment staff dispatch (docs/back-office.md#orders): the units it holds, how
 * it travels (each tracked parcel with its tracking link where the carrier has one, or the
 * untracked service), and what is still to come.
 */
export function dispatchEmail(
  order: Pick<
    OrderForEmail,
    | 'order_number'
    | 'link_version'
    | 'firstname'
    | 'lastname'
    | 'email'
    | 'delivery_line1'
    | 'delivery_line2'
    | 'delivery_town_city'
    | 'delivery_postcode'
  >,
  fulfilment: {
    sent: Units;
    toCome: Units;
    parcels: ReadonlyArray<{ carrier: string; trackingNumber: string; trackingUrl: string | null }>;
    untrackedService: string | null;
  },
): MailMessage {
  const part = fulfilment.toCome.length > 0;
  return {
    to: order.email,
    subject: part
      ? `Part of your order ${order.order_number} is on its way`
      : `Your order ${order.order_number} is on its way`,
    template: {
      name: 'dispatch',
      data: {
        orderNumber: order.order_number,
        linkVersion: order.link_version,
        customerName: nameOf(order),
        sent: mailLines(fulfilment.sent),
        toCome: mailLines(fulfilment.toCome),
        parcels: fulfilment.parcels.map((p) => ({
          carrier: p.carrier,
          trackingNumber: p.trackingNumber,
          trackingUrl: p.trackingUrl,
        })),
        untrackedService: fulfilment.untrackedService,
        deliveryAddress: addressOf(
          order.delivery_line1,
          order.delivery_line2,
          order.delivery_town_city,
          order.delivery_postcode,
        ),
      },
    },
  };
}

/**
 * Sent when staff make a paid collection order ready (docs/back-office.md#orders): the customer
 * may come for it, with the order number to give at the counter, and where the shop is.
 */
export function readyForCollectionEmail(
  order: Pick<
    OrderForEmail,
    'order_number' | 'link_version' | 'firstname' | 'lastname' | 'email' | 'delivery_method_name'
  >,
): MailMessage {
  return {
    to: order.email,
    subject: `Your order ${order.order_number} is ready to collect`,
    template: {
      name: 'readyForCollection',
      data: {
        orderNumber: order.order_number,
        linkVersion: order.link_version,
        customerName: nameOf(order),
        deliveryMethod: order.delivery_method_name,
      },
    },
  };
}

/**
 * Sent when a refund settles (the provider made it, or staff recorded one made outside it): the
 * amount, how it comes back, the credit note, and the order's page. Once per refund: it is queued
 * where the refund is recorded, in that transaction.
 */
export function refundEmail(
  order: Pick<OrderForEmail, 'order_number' | 'link_version' | 'firstname' | 'lastname' | 'email'>,
  refund: {
    amount: number;
    via: RefundRoute;
    creditNoteNumber?: number;
    reason?: string;
    returned?: ReadonlyArray<{ title: string; sizeName: string; quantity: number }>;
  },
): MailMessage {
  return {
    to: order.email,
    // ASCII, so it reads as written in every mail program's list (the amount is in the message).
    subject: `Your refund for order ${order.order_number}`,
    template: {
      name: 'refund',
      data: {
        orderNumber: order.order_number,
        linkVersion: order.link_version,
        customerName: nameOf(order),
        amount: refund.amount,
        via: refund.via,
        ...(refund.creditNoteNumber !== undefined ? { creditNoteNumber: refund.creditNoteNumber } : {}),
        ...(refund.reason ? { reason: refund.reason } : {}),
        ...(refund.returned?.length ? { returned: [...refund.returned] } : {}),
      },
    },
  };
}
