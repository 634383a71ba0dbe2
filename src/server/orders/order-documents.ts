import type { Kysely } from 'kysely';
import type { InvoiceDocument, PackingSlip } from '../../contract/documents.ts';
import type { Database } from '../db/schema.ts';
import { issueInvoice } from '../documents/issue-documents.ts';
import { NotFoundError } from '../errors.ts';
import { unitsToSend } from './order-lifecycle.ts';
import { findLinesWithUnits, findOrderByNumber, findOrdersToPack } from './orders.admin-repository.ts';
import { findOrderToInvoice } from './orders.repository.ts';

/**
 * The invoice of a paid order, issued now if it has none: an order paid before the shop issued
 * invoices gets one when first asked for (its time of supply still when it was paid); an order
 * not paid has none (undefined).
 */
export async function invoiceOfPaidOrder(
  db: Kysely<Database>,
  orderNumber: number,
  now: () => Date,
): Promise<InvoiceDocument | undefined> {
  const order = await findOrderByNumber(db, orderNumber);
  if (!order) throw new NotFoundError(`There is no order ${orderNumber}`);
  if (order.status !== 'paid') return undefined;
  return db
    .transaction()
    .execute(
      async (trx) =>
        (await issueInvoice(trx, await findOrderToInvoice(trx, order.id, { lock: true }), now().toISOString()))
          .document,
    );
}

/** The most orders one batch of packing slips holds: the oldest ones, a page each. */
export const MAX_PACKING_SLIPS = 500;

/**
 * Packing slips: the paid order with that number (any, so one can be printed again), or every paid
 * order still to dispatch, oldest first. Each line is packed with what remains to send (unitsToSend).
 */
export async function packingSlipsOf(
  db: Kysely<Database>,
  which: { orderNumber: number } | 'waiting to dispatch',
): Promise<PackingSlip[]> {
  const orders = await findOrdersToPack(db, which === 'waiting to dispatch' ? { limit: MAX_PACKING_SLIPS } : which);
  if (which !== 'waiting to dispatch' && orders.length === 0)
    throw new NotFoundError(`There is no order ${which.orderNumber}`);
  // Printed again at any time once paid; an order never paid (awaiting payment, failed, cancelled)
  // has nothing to pack, and a slip for it would only help send what no one paid for.
  if (which !== 'waiting to dispatch' && orders[0]!.status !== 'paid')
    throw new NotFoundError(`Order ${which.orderNumber} has nothing to pack: it has not been paid`);
  const lines = await findLinesWithUnits(
    db,
    orders.map((order) => order.id),
  );
  return orders.map((order) => ({
    orderNumber: order.order_number,
    placedAt: order.created_at,
    customerName: `${order.firstname} ${order.lastname}`,
    deliveryAddress: [
      `${order.firstname} ${order.lastname}`,
      order.delivery_line1,
      order.delivery_line2,
      order.delivery_line3,
      order.delivery_town_city,
      order.delivery_postcode,
      order.delivery_country_name,
    ].filter((line) => line.trim() !== ''),
    deliveryMethod: order.delivery_method_name,
    collected: order.delivery_kind === 'collection',
    contactNumber: order.contact_number,
    lines: lines
      .filter((line) => line.order_id === order.id)
      .map((line) => ({
        productId: line.product_id,
        title: line.title,
        size: line.size_name,
        quantity: unitsToSend(line),
      }))
      .filter((line) => line.quantity > 0),
  }));
}
