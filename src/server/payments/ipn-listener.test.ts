import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { orderRow, placeOrder } from '../../../test/helpers/paid-orders.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { MAX_UNVERIFIED_NOTIFICATIONS_KEPT, UNVERIFIED_BODY_CHARS_KEPT } from './payments.service.ts';

/**
 * Every post to the IPN listener is asked of PayPal and recorded, and unverified bodies were kept
 * whole and without limit (300 junk posts added 6 MB). What is kept of unverified notifications is
 * bounded, and the listener is limited per client (docs/rules.md#payments).
 */
describe('the PayPal IPN listener under junk', () => {
  const post = (t: TestApp, remoteAddress: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress,
    });

  describe('storage', () => {
    let t: TestApp;
    beforeAll(async () => {
      const paymentFetch = vi.fn(async () => new Response('INVALID')) as unknown as typeof fetch;
      t = await createTestApp({ paymentFetch, env: { RATE_LIMIT_FACTOR: '100' } });
    });
    afterAll(() => t.close());

    it('keeps a bounded number of unverified notifications, each cut short', async () => {
      const junk = (i: number) => `payment_status=Completed&invoice=${i}&padding=${'x'.repeat(20_000)}`;
      const posts = MAX_UNVERIFIED_NOTIFICATIONS_KEPT + 100;
      for (let i = 0; i < posts; i++) expect((await post(t, '198.51.100.101', junk(i))).statusCode).toBe(200);
      const kept = await t.db.kysely
        .selectFrom('payment_events')
        .select(['body', 'outcome'])
        .where('provider', '=', 'paypal')
        .execute();
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThanOrEqual(MAX_UNVERIFIED_NOTIFICATIONS_KEPT);
      expect(Math.max(...kept.map((event) => event.body.length))).toBeLessThanOrEqual(UNVERIFIED_BODY_CHARS_KEPT);
      expect(kept.every((event) => event.outcome.startsWith('rejected'))).toBe(true);
      // Hundreds of posts: room for a busy machine, since what is checked is what is kept.
    }, 120_000);
  });

  it('limits how often one client may post, and not PayPal from another address', async () => {
    const paymentFetch = vi.fn(async () => new Response('INVALID')) as unknown as typeof fetch;
    const t = await createTestApp({ paymentFetch });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 150; i++) statuses.push((await post(t, '198.51.100.102', `junk=${i}`)).statusCode);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(120);
      const calls = vi.mocked(paymentFetch).mock.calls.length;
      expect(calls).toBeLessThanOrEqual(120);
      expect((await post(t, '173.0.81.1', 'junk=paypal')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('asks PayPal only about notifications shaped like one (an invoice number and a transaction id)', async () => {
    const paymentFetch = vi.fn(async () => new Response('INVALID')) as unknown as typeof fetch;
    const t = await createTestApp({ paymentFetch, env: { RATE_LIMIT_FACTOR: '100' } });
    try {
      for (const invoice of ['', 'abc', '100000', '99999999', '1e5', '-1']) {
        expect((await post(t, '198.51.100.103', `payment_status=Completed&invoice=${invoice}`)).statusCode).toBe(200);
      }
      for (const invoice of ['', 'abc', '1e5', '-1']) {
        expect((await post(t, '198.51.100.103', `invoice=${invoice}&txn_id=T${invoice}`)).statusCode).toBe(200);
      }
      expect(vi.mocked(paymentFetch)).not.toHaveBeenCalled();
      const kept = await t.db.kysely.selectFrom('payment_events').select('outcome').execute();
      expect(kept.every((event) => event.outcome.startsWith('rejected'))).toBe(true);
    } finally {
      await t.close();
    }
  });

  /**
   * Looking the invoice up before asking PayPal made the answer name the shop's orders: while PayPal
   * could not be reached, 503 for an order that exists and 200 for one that does not (and a slower
   * answer for a real order whenever PayPal answered). Now the order is looked up only once PayPal
   * has said the notification is genuine.
   */
  it('answers a forged notification alike whether or not its invoice is an order of the shop', async () => {
    let paypalUp = false;
    const paymentFetch = vi.fn(async () => {
      if (!paypalUp) throw new Error('connect ECONNREFUSED');
      return new Response('INVALID');
    }) as unknown as typeof fetch;
    const t = await createTestApp({ paymentFetch, env: { RATE_LIMIT_FACTOR: '100' } });
    try {
      const fx = await checkoutFixtures(t.db);
      const order = await placeOrder(t, (await fx.product(2500, 5)).stockId);
      const forged = (invoice: number) =>
        `payment_status=Completed&invoice=${invoice}&txn_id=FORGED${invoice}&mc_gross=34.95&mc_currency=GBP`;
      const answers = async () => {
        const real = await post(t, '198.51.100.104', forged(order.orderNumber));
        const unknown = await post(t, '198.51.100.104', forged(order.orderNumber + 5000));
        return { real: [real.statusCode, real.body], unknown: [unknown.statusCode, unknown.body] };
      };
      const down = await answers();
      expect(down.unknown).toEqual(down.real);
      expect(down.real[0]).toBe(503);
      paypalUp = true;
      vi.mocked(paymentFetch).mockClear();
      const up = await answers();
      expect(up.unknown).toEqual(up.real);
      // PayPal was asked about both: the shop did the same work for each.
      expect(vi.mocked(paymentFetch)).toHaveBeenCalledTimes(2);
      expect((await orderRow(t, order.orderNumber)).status).toBe('pending_payment');
    } finally {
      await t.close();
    }
  });
});
