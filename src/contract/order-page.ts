import { z } from 'zod';
import { deliveryKinds, fulfilments, paymentStatuses } from './order-status.ts';

/**
 * The customer's order page (docs/rules.md#the-customers-order-page): GET /api/order-page/{key}
 * answers a paid order as its customer sees it, by the key of the signed link every order e-mail
 * carries (src/server/orders/order-links.ts). Money is integer pence, VAT included.
 */

const pence = z.number().int();

/**
 * The key in the page's address, `/order/{key}`: the order's number and a signature. Any text is
 * taken, so that a key of any shape is answered as a wrong one is (the router bounds its length).
 */
export const orderPageParamsSchema = z.object({ key: z.string() });

export const orderPageAddressSchema = z.object({
  /** Who it is for and where, one line per line, empty lines left out (the country last). */
  lines: z.array(z.string()),
});

export const orderPageLineSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  sizeName: z.string(),
  quantity: z.number().int(),
  unitPrice: pence,
  lineTotal: pence,
  /** The product's picture, when the shop has one. */
  pictureUrl: z.string().nullable(),
  /** Units sent so far, in the order's fulfilments. */
  dispatched: z.number().int(),
  /** Units a refund took back. */
  refunded: z.number().int(),
});

export const orderPageFulfilmentSchema = z.object({
  /** When it was dispatched (ISO). */
  dispatchedAt: z.string(),
  lines: z.array(
    z.object({ orderLineId: z.number().int(), title: z.string(), sizeName: z.string(), quantity: z.number().int() }),
  ),
  /** Its parcels, tracked; empty when sent untracked (then `untrackedService` names the service). */
  parcels: z.array(z.object({ carrier: z.string(), trackingNumber: z.string(), trackingUrl: z.string().nullable() })),
  untrackedService: z.string().nullable(),
});

export const orderPageDocumentSchema = z.object({
  /** INV-000123 or CN-000045; null for an invoice its link will issue when first opened. */
  number: z.string().nullable(),
  /** The signed link that downloads its PDF. */
  url: z.string(),
  issuedAt: z.string().nullable(),
  /** A credit note's amount; null for the invoice. */
  amount: pence.nullable(),
});

export const orderPageSchema = z.object({
  orderNumber: z.number().int(),
  placedAt: z.string(),
  payment: z.object({ status: z.enum(paymentStatuses), words: z.string() }),
  fulfilment: z.object({ status: z.enum(fulfilments), words: z.string() }),
  deliveryKind: z.enum(deliveryKinds),
  lines: z.array(orderPageLineSchema),
  totals: z.object({
    items: pence,
    discount: pence,
    voucherCode: z.string().nullable(),
    delivery: pence,
    deliveryMethod: z.string(),
    vat: pence,
    totalPaid: pence,
    refunded: pence,
  }),
  billingAddress: orderPageAddressSchema,
  /** Where it is sent; null for an order collected from the shop. */
  deliveryAddress: orderPageAddressSchema.nullable(),
  /** Where a collection order is collected from; null for an order sent. */
  collectionPoint: z.object({ method: z.string(), address: z.string() }).nullable(),
  fulfilments: z.array(orderPageFulfilmentSchema),
  /** The VAT invoice (the link issues it if it is not yet issued). */
  invoice: orderPageDocumentSchema,
  creditNotes: z.array(orderPageDocumentSchema),
});
export type OrderPage = z.infer<typeof orderPageSchema>;
export type OrderPageLine = z.infer<typeof orderPageLineSchema>;
export type OrderPageFulfilment = z.infer<typeof orderPageFulfilmentSchema>;

/** The customer's words for each payment status, on the page and in its e-mails. */
export const shopperPaymentWords: Record<(typeof paymentStatuses)[number], string> = {
  awaiting_payment: 'Awaiting payment',
  paid: 'Paid',
  partially_refunded: 'Paid, partly refunded',
  refunded: 'Refunded in full',
  failed: 'Payment failed',
  cancelled: 'Cancelled',
};

/** The customer's words for how far the order has gone. */
export const shopperFulfilmentWords: Record<(typeof fulfilments)[number], string> = {
  unfulfilled: 'Being prepared',
  partially_dispatched: 'Partly on its way',
  dispatched: 'On its way',
  delivered: 'Delivered',
  ready_for_collection: 'Ready to collect',
  collected: 'Collected',
};

/**
 * How far the order has gone, in the customer's words: an order refunded in full before anything
 * was sent is cancelled, whatever its stored fulfilment (which stays unfulfilled).
 */
export function shopperFulfilmentOf(
  fulfilment: (typeof fulfilments)[number],
  payment: (typeof paymentStatuses)[number],
): string {
  if (payment === 'refunded' && fulfilment === 'unfulfilled') return 'Cancelled: nothing will be sent';
  return shopperFulfilmentWords[fulfilment];
}

/** The one answer for every key that opens no order: wrong, revoked, guessed or for an unpaid order. */
export const ORDER_PAGE_NOT_FOUND = 'This order link is not valid. Please use the latest link we e-mailed you.';

/** POST /api/admin/orders/{n}/order-link: the new link's path, e-mailed to the customer. */
export const orderLinkRevokedSchema = z.object({ orderNumber: z.number().int(), to: z.string() });
export type OrderLinkRevoked = z.infer<typeof orderLinkRevokedSchema>;
