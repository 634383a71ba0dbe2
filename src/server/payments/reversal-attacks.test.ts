import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * A cancelled reversal (PayPal's Canceled_Reversal) gives back at most what reversals took
 * (docs/decisions/0025-payment-adapters.md: "a cancelled reversal gives back at most what went
 * out"). It was checked only against refunded_total, which also counts refunds: a second
 * cancellation of one reversal, or one with no reversal at all, undid a real refund, and the
 * order showed less refunded than the shopper got back (found by an outside attack, issue 33).
 */
const BUSINESS = 'payments@raag-instruments.example';
const TOTAL = '34.95';

describe('cancelled reversals against refunds', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    const paymentFetch = vi.fn(async () => new Response('VERIFIED')) as unknown as typeof fetch;
    t = await createTestApp({ paymentFetch, env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  const ipn = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: new URLSearchParams({ mc_currency: 'GBP', receiver_email: BUSINESS, ...fields }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const order = (code: string) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_code', '=', code).executeTakeFirstOrThrow();
  async function paidOrder() {
    const p = await fx.product(2500, 5);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }]),
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error('expected an order');
    const txn = `PAY${randomUUID().slice(0, 8).toUpperCase()}`;
    await ipn({ payment_status: 'Completed', txn_id: txn, mc_gross: TOTAL, invoice: String(result.orderNumber) });
    expect((await order(result.orderCode)).status).toBe('paid');
    return { ...result, txn };
  }
  const moneyBack = (o: { orderNumber: number; txn: string }, status: string, gross: string) =>
    ipn({
      payment_status: status,
      txn_id: `R${randomUUID()}`.slice(0, 17),
      parent_txn_id: o.txn,
      mc_gross: gross,
      invoice: String(o.orderNumber),
    });

  it('a Canceled_Reversal with no reversal before it does not undo a refund', async () => {
    const o = await paidOrder();
    await moneyBack(o, 'Refunded', '-10.00');
    expect((await order(o.orderCode)).refunded_total).toBe(1000);
    await moneyBack(o, 'Canceled_Reversal', '10.00');
    expect((await order(o.orderCode)).refunded_total).toBe(1000);
  });

  it('a reversal cancelled twice gives back what it took once, not a refund too', async () => {
    const o = await paidOrder();
    await moneyBack(o, 'Refunded', '-10.00');
    await moneyBack(o, 'Reversed', '-10.00');
    expect((await order(o.orderCode)).refunded_total).toBe(2000);
    await moneyBack(o, 'Canceled_Reversal', '10.00');
    expect((await order(o.orderCode)).refunded_total).toBe(1000);
    await moneyBack(o, 'Canceled_Reversal', '10.00');
    expect((await order(o.orderCode)).refunded_total).toBe(1000);
  });
});
