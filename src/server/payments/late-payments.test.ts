import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

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
    t = await createTestApp({
      env: { PAYPAL_INTEGRATION: 'checkout', RATE_LIMIT_FACTOR: '100' },
      paymentFetch: paypal.fetch,
    });
    paypal.state.app = t.server;
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
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

  const adminOrder = async (orderNumber: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/admin/orders/${orderNumber}`, headers: { cookie } })).json();

  async function commit(stockId: number, orderCode?: string) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: stockId, requestedQty: 1 }], orderCode ? { orderCode } : {}),
    });
    const result = commitResponseSchema.parse(response.json());
    if (!result.ok) throw new Error(`expected an order: ${response.body}`);
    return result;
  }

  /** A handoff, and the shopper pressing Pay on PayPal's page: the return address PayPal gives. */
  async function approvedReturn(orderCode: string) {
    const handoff = await t.app.inject({ method: 'GET', url: `/api/payment-handoff/${orderCode}` });
    expect(handoff.statusCode).toBe(200);
    const token = new URL(handoff.json().url).searchParams.get('token') as string;
    const approved = await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/checkoutnow',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, action: 'pay' }).toString(),
    });
    const back = new URL(approved.headers.location as string);
    return `${back.pathname}${back.search}`;
  }

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
    const paymentFetch = (async () => new Response('VERIFIED')) as unknown as typeof fetch;
    t = await createTestApp({ paymentFetch, env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
  });
  afterAll(() => t.close());

  it('records a payment for an order staff cancelled for a refund, leaving it cancelled and not dispatchable', async () => {
    const p = await fx.product(2500, 5);
    const committed = commitResponseSchema.parse(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/basket',
          payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }]),
        })
      ).json(),
    );
    if (!committed.ok) throw new Error('expected an order');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${committed.orderNumber}/cancel`,
      headers: { cookie },
      payload: { reason: 'Suspected fraud' },
    });
    expect(cancel.statusCode).toBe(200);
    const ipn = await t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        mc_gross: '34.95',
        invoice: String(committed.orderNumber),
        payment_status: 'Completed',
        txn_id: 'AFTERCANCEL000001',
        mc_currency: 'GBP',
        receiver_email: 'payments@raag-instruments.example',
      }).toString(),
    });
    expect(ipn.statusCode).toBe(200);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/admin/orders/${committed.orderNumber}`, headers: { cookie } })
    ).json();
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
