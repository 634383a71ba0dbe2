import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { approvedPaypalReturn, orderRow, placeOrder, shopForPayments } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/**
 * A basket whose replaced order was paid is not paid twice (orders.replaces_order_id): the handoffs
 * answer 409 ORDER_ALREADY_PAID for a paid chain. PayPal Checkout takes the money only when the shop
 * captures, at the shopper's return, so the shop keeps that rule there too. The capture claim
 * looked at the order alone: a PayPal order approved before the basket was committed again (two
 * tabs) was captured after its replacement was paid, or the replacement's after it, and the
 * shopper paid twice for one basket (found by an outside attack, issue 33).
 */
describe('PayPal Checkout captures across a replaced order', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  const paypal = injectedPaypal();
  const captured = new Set<string>();

  beforeAll(async () => {
    ({ t, fx } = await shopForPayments({ PAYPAL_INTEGRATION: 'checkout' }, paypal));
  });
  afterAll(() => t.close());
  beforeEach(() => {
    captured.clear();
    paypal.state.intercept = async (url, _init, forward) => {
      const answer = await forward();
      if (url.endsWith('/capture') && answer.status === 201) captured.add(url);
      return answer;
    };
  });

  /** Order A approved in PayPal (its return not yet followed), then the basket committed again: B replaces A. */
  async function approvedThenReplaced() {
    const p = await fx.product(2500, 20);
    const first = await placeOrder(t, p.stockId);
    const firstApproval = await approvedPaypalReturn(t, first.orderCode);
    const second = await placeOrder(t, p.stockId, 1, { orderCode: first.orderCode });
    expect((await orderRow(t, first.orderNumber)).status).toBe('cancelled');
    expect((await orderRow(t, second.orderNumber)).replaces_order_id).toBe((await orderRow(t, first.orderNumber)).id);
    return { first, firstApproval, second };
  }

  it('does not capture the replacement when the order it replaced was paid', async () => {
    const { first, firstApproval, second } = await approvedThenReplaced();
    const secondApproval = await approvedPaypalReturn(t, second.orderCode);
    await t.app.inject({ method: 'GET', url: firstApproval.returnUrl });
    expect((await orderRow(t, first.orderNumber)).status).toBe('paid');
    expect(captured.size).toBe(1);

    const back = await t.app.inject({ method: 'GET', url: secondApproval.returnUrl });
    expect(back.statusCode).toBe(303);
    expect(captured.size).toBe(1);
    expect((await orderRow(t, second.orderNumber)).status).not.toBe('paid');
  });

  it('does not capture a replaced order when its replacement was paid', async () => {
    const { first, firstApproval, second } = await approvedThenReplaced();
    const secondApproval = await approvedPaypalReturn(t, second.orderCode);
    await t.app.inject({ method: 'GET', url: secondApproval.returnUrl });
    expect((await orderRow(t, second.orderNumber)).status).toBe('paid');
    expect(captured.size).toBe(1);

    const back = await t.app.inject({ method: 'GET', url: firstApproval.returnUrl });
    expect(back.statusCode).toBe(303);
    expect(captured.size).toBe(1);
    expect((await orderRow(t, first.orderNumber)).status).toBe('cancelled');
  });
});
