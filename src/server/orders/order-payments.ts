import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { NotFoundError } from '../errors.ts';
import { sameSecret } from '../http/same-secret.ts';
import { holdsReservation, refuseIfPaidFor } from './order-lifecycle.ts';
import {
  findOrderByCode,
  findOrderById,
  findOrderByNumber,
  findOrderLines,
  setProviderStatus,
  transactionUsedByOtherOrder,
  type OrderLineRow,
  type OrderRow,
} from './orders.repository.ts';

/**
 * What the payments feature reads of orders and notes on them, beside the lifecycle's moves
 * (order-lifecycle.ts): payments never reads or writes the orders table itself (the lint zone in
 * eslint.config.js; docs/decisions/0025-payment-adapters.md).
 */

/** An order as a payment handoff, a provider's check or a payment e-mail reads it. */
export type PaymentOrder = OrderRow;
export type PaymentOrderLine = OrderLineRow;

export type OrderLookup = { id: number } | { orderNumber: number } | { code: string };

export async function findPaymentOrder(db: Kysely<Database>, lookup: OrderLookup): Promise<PaymentOrder | undefined> {
  if ('id' in lookup) return findOrderById(db, lookup.id).catch(() => undefined);
  if ('orderNumber' in lookup) return findOrderByNumber(db, lookup.orderNumber);
  return findOrderByCode(db, lookup.code);
}

export function findPaymentOrderLines(db: Kysely<Database>, orderId: number): Promise<PaymentOrderLine[]> {
  return findOrderLines(db, orderId);
}

/**
 * An order awaiting payment with its reservation running, and its lines, for a handoff: by its code
 * (the shop's own handoff, PayPal Standard's), or by its number and code (Opayo's). Not found, or
 * a 409 when it or an order it replaced is paid already (its goods would be paid for twice).
 */
export async function orderAwaitingPayment(
  db: Kysely<Database>,
  lookup: { code: string } | { orderNumber: number; code: string },
  now: Date,
): Promise<{ order: PaymentOrder; lines: PaymentOrderLine[] }> {
  const order =
    'orderNumber' in lookup
      ? await findOrderByNumber(db, lookup.orderNumber).then((found) =>
          found && sameSecret(found.order_code, lookup.code) ? found : undefined,
        )
      : await findOrderByCode(db, lookup.code);
  if (!order || !holdsReservation(order, now))
    throw new NotFoundError(`No order awaiting payment has that ${'orderNumber' in lookup ? 'number' : 'code'}`);
  await refuseIfPaidFor(db, order);
  return { order, lines: await findOrderLines(db, order.id) };
}

/** Whether another paid order was paid with this transaction id (a payment is counted once). */
export function transactionUsedElsewhere(trx: Kysely<Database>, transactionId: string, orderId: number) {
  return transactionUsedByOtherOrder(trx, transactionId, orderId);
}

/** Notes the provider's latest status for an order (a pending payment, a refund) without moving it. */
export function noteProviderStatus(
  trx: Kysely<Database>,
  orderId: number,
  provider: string,
  providerStatus: string,
  at: string,
): Promise<void> {
  return setProviderStatus(trx, orderId, provider, providerStatus, at);
}
