import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { HANDOFFS_PER_CLIENT, HANDOFFS_PER_ORDER } from './handoff-limits.ts';

/**
 * Starting a payment is limited per client and per order (docs/rules.md#limits-on-one-client):
 * each PayPal Checkout handoff makes the shop create an order through PayPal's API, and each
 * sagepay-config answers a fresh Crypt, so one order code must not buy an unlimited number of
 * them. A shopper trying again a few times is never refused.
 */
describe('limits on starting a payment', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  const paypal = injectedPaypal();
  let paypalOrdersCreated = 0;
  let clients = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { PAYPAL_INTEGRATION: 'checkout' }, paymentFetch: paypal.fetch });
    paypal.state.app = t.server;
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    paypalOrdersCreated = 0;
    paypal.state.intercept = async (url, init, forward) => {
      if (url.endsWith('/v2/checkout/orders') && init?.method === 'POST') paypalOrdersCreated += 1;
      return forward();
    };
  });

  /** An order placed from an address of its own (so the unpaid-order caps stay out of the way). */
  async function newOrder() {
    const p = await fx.product(2500, 5);
    const n = ++clients;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
        guest: { ...guest, email: `limits${n}.${Date.now()}@example.com` },
      }),
      remoteAddress: `198.51.100.${n}`,
    });
    const result = commitResponseSchema.parse(response.json());
    if (!result.ok) throw new Error(`expected an order: ${response.body}`);
    return result;
  }
  const handoff = (orderCode: string, remoteAddress: string) =>
    t.app.inject({ method: 'GET', url: `/api/payment-handoff/${orderCode}`, remoteAddress });

  it('refuses handoffs of one order past its limit, with a message saying why, without asking PayPal', async () => {
    const order = await newOrder();
    for (let i = 0; i < HANDOFFS_PER_ORDER; i++)
      expect((await handoff(order.orderCode, '203.0.113.1')).statusCode).toBe(200);
    const created = paypalOrdersCreated;
    // The next, from this client or any other, is refused.
    for (const address of ['203.0.113.1', '203.0.113.2']) {
      const refused = await handoff(order.orderCode, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json().error).toEqual({
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many attempts to pay for this order. Please wait a few minutes and try again.',
      });
    }
    expect(paypalOrdersCreated).toBe(created);
  });

  it('refuses one client handoffs past its limit across orders, while other shoppers go on', async () => {
    const orders = await Promise.all(Array.from({ length: 4 }, () => newOrder()));
    const answers: number[] = [];
    for (let i = 0; i < HANDOFFS_PER_CLIENT + 1; i++)
      answers.push((await handoff(orders[i % orders.length]!.orderCode, '203.0.113.50')).statusCode);
    expect(answers.slice(0, HANDOFFS_PER_CLIENT).every((status) => status === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    const other = await newOrder();
    expect((await handoff(other.orderCode, '203.0.113.51')).statusCode).toBe(200);
  });

  it('counts a HEAD request as the handoff it is (Fastify answers it with the same handler)', async () => {
    const order = await newOrder();
    const head = (address: string) =>
      t.app.inject({ method: 'HEAD', url: `/api/payment-handoff/${order.orderCode}`, remoteAddress: address });
    for (let i = 0; i < HANDOFFS_PER_ORDER; i++) expect((await head('203.0.113.40')).statusCode).toBe(200);
    expect((await head('203.0.113.41')).statusCode).toBe(429);
    expect((await handoff(order.orderCode, '203.0.113.42')).statusCode).toBe(429);
  });

  it("never refuses a shopper's few tries again", async () => {
    const order = await newOrder();
    for (let i = 0; i < 3; i++) expect((await handoff(order.orderCode, '203.0.113.60')).statusCode).toBe(200);
  });

  it('limits sagepay-config per client and per order in the same way', async () => {
    const order = await newOrder();
    const config = (address: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/sagepay-config/${order.orderNumber}?code=${order.orderCode}`,
        remoteAddress: address,
      });
    for (let i = 0; i < HANDOFFS_PER_ORDER; i++) expect((await config('203.0.113.70')).statusCode).toBe(200);
    const refused = await config('203.0.113.71');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(
      'Too many attempts to pay for this order. Please wait a few minutes and try again.',
    );
  });
});
