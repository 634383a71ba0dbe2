import type { Kysely } from 'kysely';
import {
  ORDER_PAGE_NOT_FOUND,
  shopperFulfilmentOf,
  shopperPaymentWords,
  type OrderLinkRevoked,
  type OrderPage,
} from '../../contract/order-page.ts';
import { paymentStatusOf } from '../../contract/order-status.ts';
import type { Database } from '../db/schema.ts';
import type { DocumentLinks } from '../documents/document-links.ts';
import type { DocumentsService } from '../documents/documents.service.ts';
import { NotFoundError } from '../errors.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import { orderOfLinkKey, type OrderLinks } from '../orders/order-links.ts';
import { staffChange } from '../orders/order-staff-change.ts';
import { findFulfilments, findOrderLinesWithRestocked } from '../orders/orders.admin-repository.ts';
import { findOrderById, findOrderLinkVersion, raiseOrderLinkVersion } from '../orders/orders.repository.ts';
import { trackingUrlFor } from '../orders/tracking-links.ts';
import type { Staff } from '../staff/staff.service.ts';
import { newOrderLinkEmail } from './order-link-email.ts';
import { picturesOfStock } from './order-page.repository.ts';

export interface OrderPageOptions {
  links: OrderLinks;
  documentLinks: DocumentLinks;
  documents: Pick<DocumentsService, 'ofOrder'>;
  /** The shop's address, from which the page's full link is made for e-mails. */
  publicUrl: string;
  /** Where collection orders are collected: the shop's address. */
  /** The shop's address as the owner's settings stand now (a collection's collection point). */
  shopAddress: () => Promise<string>;
  now?: () => string;
}

/** Whether an order has a page: it was paid (it may since have been refunded). */
export function hasOrderPage(order: { paid_at: string | null }): boolean {
  return order.paid_at !== null;
}

/** An order's page path, for My Account and the confirmation page; null for an unpaid order. */
export type OrderPagePath = (order: {
  order_number: number;
  link_version: number;
  paid_at: string | null;
}) => string | null;

export function orderPagePathOf(links: OrderLinks): OrderPagePath {
  return (order) => (hasOrderPage(order) ? links.pathOf(order.order_number, order.link_version) : null);
}

/**
 * The customer's order page (docs/rules.md#the-customers-order-page): a paid order by the key of
 * its signed link, and staff revoking its links with a new one e-mailed to the customer.
 */
export function createOrderPageService(db: Kysely<Database>, options: OrderPageOptions) {
  const now = options.now ?? (() => new Date().toISOString());
  const notFound = () => new NotFoundError(ORDER_PAGE_NOT_FOUND);

  return {
    /** GET /api/order-page/{key}: one and the same 404 for any key that opens no paid order. */
    async view(key: string): Promise<OrderPage> {
      const orderId = await orderOfLinkKey(options.links, key, (orderNumber) => findOrderLinkVersion(db, orderNumber));
      if (orderId === undefined) throw notFound();
      const order = await findOrderById(db, orderId);
      if (!hasOrderPage(order)) throw notFound();
      const [lines, fulfilments, documents] = await Promise.all([
        findOrderLinesWithRestocked(db, order.id),
        findFulfilments(db, order.id),
        options.documents.ofOrder(order.order_number),
      ]);
      const pictures = await picturesOfStock(
        db,
        lines.map((line) => line.product_stock_id),
      );
      const payment = paymentStatusOf({
        status: order.status,
        total: order.total_including_delivery,
        refundedTotal: order.refunded_total,
      });
      const collected = order.delivery_kind === 'collection';
      const shopAddress = collected ? await options.shopAddress() : '';
      return {
        orderNumber: order.order_number,
        placedAt: order.created_at,
        payment: { status: payment, words: shopperPaymentWords[payment] },
        fulfilment: { status: order.fulfilment, words: shopperFulfilmentOf(order.fulfilment, payment) },
        deliveryKind: order.delivery_kind,
        lines: lines.map((line) => ({
          id: line.id,
          title: line.title,
          sizeName: line.size_name,
          quantity: line.quantity,
          unitPrice: line.unit_price,
          lineTotal: line.line_total,
          pictureUrl: pictures.get(line.product_stock_id) ?? null,
          dispatched: line.dispatched,
          refunded: Number(line.restocked),
        })),
        totals: {
          items: order.items_total,
          discount: order.discount_amount,
          voucherCode: order.voucher_code,
          delivery: order.delivery_price,
          deliveryMethod: order.delivery_method_name,
          vat: order.total_vat,
          totalPaid: order.total_including_delivery,
          refunded: order.refunded_total,
        },
        billingAddress: {
          lines: addressLines(`${order.firstname} ${order.lastname}`, [
            order.billing_line1,
            order.billing_line2,
            order.billing_line3,
            order.billing_town_city,
            order.billing_postcode,
            order.billing_country_name,
          ]),
        },
        deliveryAddress: collected
          ? null
          : {
              lines: addressLines(`${order.firstname} ${order.lastname}`, [
                order.delivery_line1,
                order.delivery_line2,
                order.delivery_line3,
                order.delivery_town_city,
                order.delivery_postcode,
                order.delivery_country_name,
              ]),
            },
        collectionPoint: collected ? { method: order.delivery_method_name, address: shopAddress } : null,
        fulfilments: fulfilments.map((fulfilment) => ({
          dispatchedAt: fulfilment.created_at,
          lines: fulfilment.lines.map((line) => ({
            orderLineId: line.order_line_id,
            title: line.title,
            sizeName: line.size_name,
            quantity: line.quantity,
          })),
          parcels: fulfilment.parcels.map((parcel) => ({
            carrier: parcel.carrier,
            trackingNumber: parcel.tracking_number,
            trackingUrl: trackingUrlFor(parcel.carrier, parcel.tracking_number),
          })),
          untrackedService: fulfilment.method === 'untracked' ? fulfilment.service : null,
        })),
        invoice: {
          number: documents.invoice?.number ?? null,
          url: options.documentLinks.pathTo('invoice', order.order_number, order.link_version),
          issuedAt: documents.invoice?.issuedAt ?? null,
          amount: null,
        },
        creditNotes: documents.creditNotes.map((note) => ({
          number: note.number,
          url: options.documentLinks.pathTo('credit-note', creditNoteNumberOf(note.number), order.link_version),
          issuedAt: note.issuedAt,
          amount: note.amount,
        })),
      };
    },

    /**
     * Staff revoke every link to the order's page (POST /api/admin/orders/{n}/order-link): its link
     * version goes up, the audit log says who did it, and the customer is e-mailed the new link,
     * all in one transaction.
     */
    async revoke(orderNumber: number, staff: Staff): Promise<OrderLinkRevoked> {
      let to = '';
      await staffChange({ db, now }, orderNumber, staff, 'order.revoke-order-link', async (trx, order, at) => {
        if (!hasOrderPage(order)) return { refused: 'Only a paid order has a page to link to.' };
        const version = await raiseOrderLinkVersion(trx, order.id, at);
        await insertMail(trx, newOrderLinkEmail(order, version), at);
        to = order.email;
        return { after: { linkVersion: version, to: order.email } };
      });
      return { orderNumber, to };
    },
  };
}

export type OrderPageService = ReturnType<typeof createOrderPageService>;

/** The name and the address's lines that are not empty. */
function addressLines(name: string, lines: string[]): string[] {
  return [name, ...lines.map((line) => line.trim()).filter((line) => line !== '')];
}

/** "CN-000007" -> 7. */
function creditNoteNumberOf(text: string): number {
  return Number(text.replace(/^CN-/, ''));
}
