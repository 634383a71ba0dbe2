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
 * payment status, as shop platforms keep them.
 */
export const fulfilments = ['unfulfilled', 'dispatched', 'delivered'] as const;
export type Fulfilment = (typeof fulfilments)[number];
