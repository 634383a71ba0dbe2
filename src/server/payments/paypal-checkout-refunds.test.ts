import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import {
  backOffice,
  orderRow as storedOrder,
  placeOrder,
  shopForPayments,
  approvedPaypalReturn,
} from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Refunds from the back office through the provider (ADR 0013): PayPal Checkout refunds the
 * capture, full or partial, recorded with PayPal's refund id, and the REFUNDED webhook that follows
 * counts nothing twice. The amount is reserved before PayPal is asked, so two refunds at once never
 * send back more than was paid, and a refusal gives it back. Providers without a refund call
 * (PayPal Standard, Opayo Form) record a refund made outside the shop, as before.
 */
describe('refunds through the provider', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const paypal = injectedPaypal();
  let refundCalls = 0;

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYPAL_INTEGRATION: 'checkout' }, paypal));
  });
  afterAll(() => t.close());
  beforeEach(() => {
    refundCalls = 0;
    paypal.state.intercept = async (url, _init, forward) => {
      if (url.endsWith('/refund')) refundCalls += 1;
      return forward();
    };
  });

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    backOffice(t, cookie).call(method, url, payload);
  const orderRow = (orderNumber: number) => storedOrder(t, orderNumber);

  /** An order of 2 units at £25 with express delivery (£59.95), paid through the PayPal sandbox. */
  async function paidOrder() {
    const p = await fx.product(2500, 10);
    const committed = await placeOrder(t, p.stockId, 2);
    await t.app.inject({ method: 'GET', url: (await approvedPaypalReturn(t, committed.orderCode)).returnUrl });
    const row = await orderRow(committed.orderNumber);
    expect(row.status).toBe('paid');
    return { ...committed, product: p, row };
  }

  it('refunds part, then the rest, through PayPal, each once, recorded with PayPal refund id', async () => {
    const { orderNumber, row } = await paidOrder();
    const detail = await admin('GET', `/orders/${orderNumber}`);
    expect(detail.json()).toMatchObject({ refundsThrough: 'provider', actions: expect.arrayContaining(['refund']) });
    const webhooksBefore = paypal.state.webhooks.length;
    const line = detail.json().lines[0].id;
    const first = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1000,
      reason: 'One arrived scratched',
      restock: [{ lineId: line, quantity: 1 }],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      refundedTotal: 1000,
      refunds: [
        {
          kind: 'refund',
          amount: 1000,
          provider: 'paypal-checkout',
          reference: expect.stringMatching(/^[A-Z0-9]{17}$/),
        },
      ],
      lines: [expect.objectContaining({ restocked: 1 })],
    });
    // The webhook PayPal sends about the same refund counts nothing twice.
    await vi.waitFor(() => expect(paypal.state.webhooks.length).toBe(webhooksBefore + 1));
    await vi.waitFor(async () =>
      expect(
        await t.db.kysely.selectFrom('payment_events').select('id').where('order_id', '=', row.id).execute(),
      ).toHaveLength(2),
    );
    expect((await orderRow(orderNumber)).refunded_total).toBe(1000);

    const rest = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 4995, reason: 'Returned' });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ refundedTotal: 5995, actions: [] });
    expect(rest.json().refunds).toHaveLength(2);
    await vi.waitFor(() => expect(paypal.state.webhooks.length).toBe(webhooksBefore + 2));
    expect((await orderRow(orderNumber)).refunded_total).toBe(5995);
    expect(refundCalls).toBe(2);
  });

  it('refuses more than was paid without asking PayPal, also for two refunds at once', async () => {
    const { orderNumber } = await paidOrder();
    const tooMuch = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 5996, reason: 'Too much' });
    expect(tooMuch.statusCode).toBe(409);
    expect(refundCalls).toBe(0);
    const both = await Promise.all([
      admin('POST', `/orders/${orderNumber}/refund`, { amount: 4000, reason: 'First' }),
      admin('POST', `/orders/${orderNumber}/refund`, { amount: 4000, reason: 'Second' }),
    ]);
    expect(both.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(refundCalls).toBe(1);
    expect((await orderRow(orderNumber)).refunded_total).toBe(4000);
  });

  it('never refuses a refund PayPal made: refunds at once restocking the last units are checked before PayPal is asked', async () => {
    const { orderNumber, product } = await paidOrder();
    const refundsMade: string[] = [];
    let refundWebhooksHandled = 0;
    paypal.state.intercept = async (url, init, forward) => {
      const answer = await forward();
      if (url.endsWith('/refund') && answer.status < 300) refundsMade.push(url);
      if (url.endsWith('/webhooks/paypal') && String(init?.body).includes('PAYMENT.CAPTURE.REFUNDED'))
        refundWebhooksHandled += 1;
      return answer;
    };
    const line = (await admin('GET', `/orders/${orderNumber}`)).json().lines[0].id;
    const stockBefore = await t.db.kysely
      .selectFrom('product_stocks')
      .select('stock')
      .where('id', '=', product.stockId)
      .executeTakeFirstOrThrow();
    // Five refunds of £1, each putting one unit back; the order sold two.
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        admin('POST', `/orders/${orderNumber}/refund`, {
          amount: 100,
          reason: `Returned ${i}`,
          restock: [{ lineId: line, quantity: 1 }],
        }),
      ),
    );
    const accepted = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(accepted).toHaveLength(2);
    expect(refused.map((answer) => answer.json().error.message)).toEqual(
      Array(3).fill('That puts back more units of a line than were sold.'),
    );
    // PayPal made exactly the refunds the shop answered 200 for, and the shop recorded them.
    expect(refundsMade).toHaveLength(accepted.length);
    // PayPal's webhooks about the same refunds put nothing back a second time.
    await vi.waitFor(() => expect(refundWebhooksHandled).toBe(2));
    const after = (await admin('GET', `/orders/${orderNumber}`)).json();
    expect(after).toMatchObject({ refundedTotal: 200, lines: [expect.objectContaining({ restocked: 2 })] });
    expect(after.refunds).toHaveLength(2);
    const stockAfter = await t.db.kysely
      .selectFrom('product_stocks')
      .select('stock')
      .where('id', '=', product.stockId)
      .executeTakeFirstOrThrow();
    expect(stockAfter.stock - stockBefore.stock).toBe(2);
  });

  it('refuses a restock naming one line twice for more than it sold, before PayPal is asked', async () => {
    // An outside attack listed the same line twice, two units each, on a line that sold two: the
    // shop answered 409 after PayPal had made the refund.
    const { orderNumber } = await paidOrder();
    const refundsMade: string[] = [];
    paypal.state.intercept = async (url, _init, forward) => {
      const answer = await forward();
      if (url.endsWith('/refund') && answer.status < 300) refundsMade.push(url);
      return answer;
    };
    const line = (await admin('GET', `/orders/${orderNumber}`)).json().lines[0].id;
    const answer = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 100,
      reason: 'Returned twice over',
      restock: [
        { lineId: line, quantity: 2 },
        { lineId: line, quantity: 2 },
      ],
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.message).toBe('That puts back more units of a line than were sold.');
    expect(refundsMade).toEqual([]);
    expect((await admin('GET', `/orders/${orderNumber}`)).json()).toMatchObject({ refundedTotal: 0, refunds: [] });
  });

  it('gives the reserved amount back when PayPal refuses the refund', async () => {
    const { orderNumber, row } = await paidOrder();
    paypal.state.intercept = async (url, _init, forward) => {
      if (!url.endsWith('/refund')) return forward();
      refundCalls += 1;
      return new Response(
        JSON.stringify({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'REFUND_NOT_ALLOWED' }] }),
        {
          status: 422,
        },
      );
    };
    const refused = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1000, reason: 'Goodwill' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('REFUND_NOT_ALLOWED');
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
    const requests = await t.db.kysely
      .selectFrom('refund_requests')
      .selectAll()
      .where('order_id', '=', row.id)
      .execute();
    expect(requests.map((r) => r.status)).toEqual(['refused']);
  });

  it('records a refund PayPal answers as pending once its REFUNDED webhook says it completed, with its unit back', async () => {
    // PayPal answers PENDING when it cannot send the money yet (an eCheck payment, a low balance),
    // then reports the refund completed in PAYMENT.CAPTURE.REFUNDED, under the same refund id.
    const { orderNumber, product, row } = await paidOrder();
    const line = (await admin('GET', `/orders/${orderNumber}`)).json().lines[0].id;
    paypal.state.holdWebhooks = true;
    const webhooksBefore = paypal.state.webhooks.length;
    paypal.state.intercept = async (url, _init, forward) => {
      const answer = await forward();
      if (!url.endsWith('/refund') || answer.status >= 300) return answer;
      const refund = (await answer.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...refund, status: 'PENDING' }), { status: answer.status });
    };
    const stock = async () =>
      (
        await t.db.kysely
          .selectFrom('product_stocks')
          .select('stock')
          .where('id', '=', product.stockId)
          .executeTakeFirstOrThrow()
      ).stock;
    const stockBefore = await stock();
    try {
      const pending = await admin('POST', `/orders/${orderNumber}/refund`, {
        amount: 1000,
        reason: 'Returned',
        restock: [{ lineId: line, quantity: 1 }],
      });
      expect(pending.statusCode).toBe(409);
      expect(pending.json().error.message).toContain('did not confirm the refund');
      expect((await orderRow(orderNumber)).refunded_total).toBe(1000);

      const refunded = () =>
        paypal.state.webhooks.slice(webhooksBefore).find((w) => w.body.includes('PAYMENT.CAPTURE.REFUNDED'));
      await vi.waitFor(() => expect(refunded()).toBeDefined());
      const completed = refunded() as { headers: Record<string, string>; body: string };
      expect(JSON.parse(completed.body).resource.status).toBe('COMPLETED');
      const delivered = await t.server.inject({
        method: 'POST',
        url: '/webhooks/paypal',
        headers: completed.headers,
        payload: completed.body,
      });
      expect(delivered.statusCode).toBe(200);
    } finally {
      paypal.state.holdWebhooks = false;
    }

    const after = (await admin('GET', `/orders/${orderNumber}`)).json();
    expect(after).toMatchObject({
      refundedTotal: 1000,
      refunds: [expect.objectContaining({ kind: 'refund', amount: 1000, provider: 'paypal-checkout' })],
      lines: [expect.objectContaining({ restocked: 1 })],
    });
    expect(await stock()).toBe(stockBefore + 1);
    const requests = await t.db.kysely
      .selectFrom('refund_requests')
      .select('status')
      .where('order_id', '=', row.id)
      .execute();
    expect(requests.map((r) => r.status)).toEqual(['refunded']);
  });

  it('keeps the amount reserved when PayPal answers success with a body that does not read, and records the refund its webhook reports', async () => {
    // A 2xx from PayPal means the refund was made, whatever its body (cut short by a proxy, a
    // changed format): giving the amount back would let it be refunded a second time and leave
    // the refund PayPal reports later unrecorded.
    const { orderNumber, row } = await paidOrder();
    const webhooksBefore = paypal.state.webhooks.length;
    paypal.state.holdWebhooks = true;
    paypal.state.intercept = async (url, _init, forward) => {
      const answer = await forward();
      if (!url.endsWith('/refund') || answer.status >= 300) return answer;
      return new Response('{"unexpected":', { status: answer.status });
    };
    try {
      const unclear = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1000, reason: 'Goodwill' });
      expect(unclear.statusCode).toBe(409);
      expect(unclear.json().error.message).toContain('did not confirm the refund');
      expect((await orderRow(orderNumber)).refunded_total).toBe(1000);
      // What is left is all that can still be refunded.
      paypal.state.intercept = undefined;
      const tooMuch = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 5995, reason: 'Again' });
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json().error.message).toBe('That is more than is left to refund on this order.');

      const refunded = () =>
        paypal.state.webhooks.slice(webhooksBefore).find((w) => w.body.includes('PAYMENT.CAPTURE.REFUNDED'));
      await vi.waitFor(() => expect(refunded()).toBeDefined());
      const webhook = refunded() as { headers: Record<string, string>; body: string };
      await t.server.inject({
        method: 'POST',
        url: '/webhooks/paypal',
        headers: webhook.headers,
        payload: webhook.body,
      });
    } finally {
      paypal.state.holdWebhooks = false;
    }
    expect((await admin('GET', `/orders/${orderNumber}`)).json()).toMatchObject({
      refundedTotal: 1000,
      refunds: [expect.objectContaining({ amount: 1000, provider: 'paypal-checkout' })],
    });
    const requests = await t.db.kysely
      .selectFrom('refund_requests')
      .select('status')
      .where('order_id', '=', row.id)
      .execute();
    expect(requests.map((r) => r.status)).toEqual(['refunded']);
  });

  it('records a refund made outside the shop for a provider that cannot refund (Opayo Form)', async () => {
    const { orderNumber } = await paidOrder();
    await t.db.kysely
      .updateTable('orders')
      .set({ payment_provider: 'opayo' })
      .where('order_number', '=', orderNumber)
      .execute();
    expect((await admin('GET', `/orders/${orderNumber}`)).json().refundsThrough).toBe('outside');
    const recorded = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 500,
      reason: 'Refunded in MySagePay',
    });
    expect(recorded.statusCode).toBe(200);
    expect(recorded.json().refunds).toEqual([expect.objectContaining({ provider: 'manual', amount: 500 })]);
    expect(refundCalls).toBe(0);
  });
});
