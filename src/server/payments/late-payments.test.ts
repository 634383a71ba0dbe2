import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import {
  approvedPaypalReturn,
  backOffice,
  completedPaymentIpn,
  placeOrder,
  shopForPayments,
} from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/**
 * A payment that arrives after the order ended (docs/rules.md#orders-and-stock). An order the
 * shopper's own new commit replaced is paid late, as before. An order staff cancelled (suspected
 * fraud, a mistake) is never made paid and dispatchable by it: PayPal Checkout's approval is not
 * captured at all; a payment taken on the provider's own page is recorded for staff to refund.
 */
describe('payments after the order ended: PayPal Checkout', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const paypal = injectedPaypal();
  const captured = new Set<string>();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYPAL_INTEGRATION: 'checkout' }, paypal));
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

  const adminOrder = (orderNumber: number) => backOffice(t, cookie).order(orderNumber);
  const commit = (stockId: number, orderCode?: string) => placeOrder(t, stockId, 1, orderCode ? { orderCode } : {});
  const approvedReturn = async (orderCode: string) => (await approvedPaypalReturn(t, orderCode)).returnUrl;

  it('does not capture an approval for an order staff cancelled', async () => {
    const p = await fx.product(2500, 5);
    const order = await commit(p.stockId);
    const returnUrl = await approvedReturn(order.orderCode);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderNumber}/cancel`,
      headers: { cookie },
      payload: { reason: 'Suspected fraud' },
    });
    expect(cancel.statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: returnUrl });
    expect(captured.size).toBe(0);
    expect(await adminOrder(order.orderNumber)).toMatchObject({
      status: 'cancelled',
      actions: [],
      paymentsToRefund: [],
    });
    const status = (await t.app.inject({ method: 'GET', url: `/api/order-status/${order.orderCode}` })).json();
    expect(status.status).toBe('cancelled');
  });

  it("still pays late an order the shopper's own new commit replaced", async () => {
    const p = await fx.product(2500, 5);
    const first = await commit(p.stockId);
    const returnUrl = await approvedReturn(first.orderCode);
    // BACK TO CART, then SECURE CHECKOUT again: the first order is replaced (cancelled).
    await commit(p.stockId, first.orderCode);
    await t.app.inject({ method: 'GET', url: returnUrl });
    expect(captured.size).toBe(1);
    expect(await adminOrder(first.orderNumber)).toMatchObject({
      status: 'paid',
      paymentNote: 'Paid after it had been cancelled; the stock was taken again.',
      actions: expect.arrayContaining(['dispatch']),
    });
  });
});

describe('payments after the order ended: a provider that takes the money on its own page', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;

  beforeAll(async () => {
    // PayPal answers every IPN the shop asks it about as genuine.
    const fetch = (async () => new Response('VERIFIED')) as unknown as typeof globalThis.fetch;
    ({ t, fx, cookie } = await shopForPayments({}, { fetch }));
  });
  afterAll(() => t.close());

  it('records a payment for an order staff cancelled for a refund, leaving it cancelled and not dispatchable', async () => {
    const p = await fx.product(2500, 5);
    const committed = await placeOrder(t, p.stockId);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${committed.orderNumber}/cancel`,
      headers: { cookie },
      payload: { reason: 'Suspected fraud' },
    });
    expect(cancel.statusCode).toBe(200);
    const ipn = await completedPaymentIpn(t, committed.orderNumber, 'AFTERCANCEL000001');
    expect(ipn.statusCode).toBe(200);
    const detail = await backOffice(t, cookie).order(committed.orderNumber);
    expect(detail).toMatchObject({
      status: 'cancelled',
      actions: [],
      paymentsToRefund: [
        { provider: 'paypal', reference: 'AFTERCANCEL000001', amount: 3495, reason: 'cancelled by staff' },
      ],
    });
    // The units went back to stock with the cancel and stay there.
    const stock = await t.db.kysely
      .selectFrom('product_stocks')
      .select('stock')
      .where('id', '=', p.stockId)
      .executeTakeFirstOrThrow();
    expect(stock.stock).toBe(5);
  });
});
