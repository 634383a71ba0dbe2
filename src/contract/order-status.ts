/**
 * An order's statuses (docs/architecture.md, "Order lifecycle"). Zod-free, so a page can name a
 * status without loading the schemas. The moves between them are in
 * src/server/orders/order-lifecycle.ts.
 */
export const orderStatuses = ['pending_payment', 'paid', 'payment_failed', 'expired', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** Waiting for its payment: while its reservation runs it holds its stock and can be paid or recovered. */
export const awaitingPayment = ['pending_payment', 'payment_failed'] as const satisfies readonly OrderStatus[];

/** Ended without a payment: the confirmation page shows TRANSACTION FAILED. */
export const endedUnpaid = ['payment_failed', 'expired', 'cancelled'] as const satisfies readonly OrderStatus[];

export function isOneOf<S extends OrderStatus>(status: string, statuses: readonly S[]): status is S {
  return (statuses as readonly string[]).includes(status);
}

/**
 * How far a paid order has gone on its way to the customer (the back office moves it): beside the
 * payment status, as shop platforms keep them. A delivery order is dispatched, then delivered; a
 * collection order is made ready for collection, then collected (docs/rules.md#orders-and-stock).
 */
export const fulfilments = [
  'unfulfilled',
  'partially_dispatched',
  'dispatched',
  'delivered',
  'ready_for_collection',
  'collected',
] as const;
export type Fulfilment = (typeof fulfilments)[number];

export const fulfilmentLabels: Record<Fulfilment, string> = {
  unfulfilled: 'Unfulfilled',
  partially_dispatched: 'Partially dispatched',
  dispatched: 'Dispatched',
  delivered: 'Delivered',
  ready_for_collection: 'Ready for collection',
  collected: 'Collected',
};

/** How a delivery method gets an order to its customer: sent to them, or collected by them. */
export const deliveryKinds = ['delivery', 'collection'] as const;
export type DeliveryKind = (typeof deliveryKinds)[number];

/**
 * An order's payment as people read it, derived from its stored status and how much of it has
 * been refunded: never stored, so it cannot disagree with them.
 */
export const paymentStatuses = [
  'awaiting_payment',
  'paid',
  'partially_refunded',
  'refunded',
  'failed',
  'cancelled',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentStatusLabels: Record<PaymentStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * What each stored status reads as; a paid order reads paid, partially refunded or refunded by
 * its refunds. An expired order (its reservation lapsed unpaid) reads cancelled.
 */
export const paymentStatusOfStored = {
  pending_payment: 'awaiting_payment',
  payment_failed: 'failed',
  expired: 'cancelled',
  cancelled: 'cancelled',
  paid: 'paid',
} as const satisfies Record<OrderStatus, PaymentStatus>;

/** Money in pence: what the order came to and how much of it has gone back. */
interface Refundable {
  status: OrderStatus;
  total: number;
  refundedTotal: number;
}

/** All its money has gone back (a paid order refunded in full). */
export function isRefundedInFull(order: Refundable): boolean {
  return order.status === 'paid' && order.refundedTotal >= order.total;
}

export function paymentStatusOf(order: Refundable): PaymentStatus {
  if (order.status !== 'paid') return paymentStatusOfStored[order.status];
  if (order.refundedTotal <= 0) return 'paid';
  return isRefundedInFull(order) ? 'refunded' : 'partially_refunded';
}

/**
 * Fulfilments an order waits to be dispatched from: nothing sent yet, or some lines sent and the
 * rest to come (a collection order is made ready from unfulfilled only).
 */
export const toDispatch = ['unfulfilled', 'partially_dispatched'] as const satisfies readonly Fulfilment[];

/**
 * In the packer's list ("to dispatch": the list's filter, the dashboard, the batch of packing
 * slips): paid, not refunded in full, and not yet on its way.
 */
export function isWaitingToDispatch(order: Refundable & { fulfilment: Fulfilment }): boolean {
  return (
    order.status === 'paid' &&
    !isRefundedInFull(order) &&
    (toDispatch as readonly Fulfilment[]).includes(order.fulfilment)
  );
}
