import { describe, expect, it } from 'vitest';
import {
  fulfilmentLabels,
  fulfilments,
  isWaitingToDispatch,
  orderStatuses,
  paymentStatusLabels,
  paymentStatusOf,
  paymentStatuses,
  type OrderStatus,
} from './order-status.ts';

describe('an order’s statuses as people read them', () => {
  it.each([
    ['pending_payment', 0, 'awaiting_payment'],
    ['payment_failed', 0, 'failed'],
    ['expired', 0, 'cancelled'],
    ['cancelled', 0, 'cancelled'],
    ['paid', 0, 'paid'],
    ['paid', 1, 'partially_refunded'],
    ['paid', 4999, 'partially_refunded'],
    ['paid', 5000, 'refunded'],
  ] as const)('reads %s with %ip of 5000p refunded as %s', (status, refundedTotal, reads) => {
    expect(paymentStatusOf({ status, total: 5000, refundedTotal })).toBe(reads);
  });

  it('gives every stored status a reading, and every reading and fulfilment a label', () => {
    for (const status of orderStatuses) {
      expect(paymentStatuses).toContain(paymentStatusOf({ status, total: 100, refundedTotal: 0 }));
    }
    for (const payment of paymentStatuses) expect(paymentStatusLabels[payment]).toMatch(/^[A-Z][a-z ]+$/);
    for (const fulfilment of fulfilments) expect(fulfilmentLabels[fulfilment]).toMatch(/^[A-Z][a-z ]+$/);
  });

  it('waits to dispatch only a paid order not yet (wholly) on its way with some of its money still the shop’s', () => {
    const order = (status: OrderStatus, fulfilment: (typeof fulfilments)[number], refundedTotal: number) =>
      isWaitingToDispatch({ status, fulfilment, total: 5000, refundedTotal });
    expect(order('paid', 'unfulfilled', 0)).toBe(true);
    expect(order('paid', 'unfulfilled', 4999)).toBe(true);
    expect(order('paid', 'unfulfilled', 5000)).toBe(false);
    // Part sent: the rest is still to pack, unless its money has all gone back.
    expect(order('paid', 'partially_dispatched', 0)).toBe(true);
    expect(order('paid', 'partially_dispatched', 5000)).toBe(false);
    for (const fulfilment of fulfilments.filter((f) => f !== 'unfulfilled' && f !== 'partially_dispatched'))
      expect(order('paid', fulfilment, 0)).toBe(false);
    for (const status of orderStatuses.filter((s) => s !== 'paid')) expect(order(status, 'unfulfilled', 0)).toBe(false);
  });
});
