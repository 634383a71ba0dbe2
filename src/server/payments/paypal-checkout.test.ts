import { createHmac, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { deliveredMail } from '../../../test/helpers/outbox.ts';
import { placeOrder } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * PayPal Checkout, Orders v2, against the local sandbox (docs/rules.md#payments; ADR 0013): the
 * order created with a breakdown that adds up, the approve link, one capture on return, and
 * webhooks believed only when PayPal verifies their signature, each applied once.
 */
describe('PayPal Checkout', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  const paypal = injectedPaypal();
  const created: Array<Record<string, any>> = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { PAYPAL_INTEGRATION: 'checkout', RATE_LIMIT_FACTOR: '100' },
      paymentFetch: paypal.fetch,
    });
    paypal.state.app = t.server;
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    paypal.state.intercept = async (url, init, forward) => {
      if (url.endsWith('/v2/checkout/orders') && init?.method === 'POST') created.push(JSON.parse(String(init.body)));
      return forward();
    };
    paypal.state.holdWebhooks = false;
  });

  const orderRow = (code: string) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_code', '=', code).executeTakeFirstOrThrow();
  const eventsOf = (orderId: number) =>
    t.db.kysely.selectFrom('payment_events').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

  async function newOrder(price = 2500, qty = 1, extra: Parameters<typeof commitBody>[1] = {}) {
    return placeOrder(t, (await fx.product(price, 20)).stockId, qty, extra);
  }

  /** SECURE CHECKOUT's handoff: the approve link, and the PayPal order id it names. */
  async function handoff(orderCode: string) {
    const answer = await t.app.inject({ method: 'GET', url: `/api/payment-handoff/${orderCode}` });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.kind).toBe('redirect');
    const url = new URL(body.url);
    expect(url.pathname).toBe('/sandbox/paypal/checkoutnow');
    return url.searchParams.get('token') as string;
  }

  /** The shopper presses Pay (or Cancel) on the approve page; answers where PayPal sends them. */
  async function approve(token: string, action: 'pay' | 'cancel' = 'pay') {
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/paypal/checkoutnow?token=${token}` });
    expect(page.statusCode).toBe(200);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/checkoutnow',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, action }).toString(),
    });
    expect(answer.statusCode).toBe(303);
    return new URL(answer.headers.location as string);
  }

  async function returnWith(query: string) {
    const answer = await t.app.inject({ method: 'GET', url: `/api/payments/paypal-checkout/return?${query}` });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/checkout-confirm');
    expect(answer.body).toBe('');
    return answer;
  }

  /** Signs an event as the sandbox signs its webhooks (as PayPal would sign a genuine event). */
  async function signedWebhook(event: object, sign = true) {
    const key = (
      await t.db.kysely
        .selectFrom('settings')
        .select('value')
        .where('name', '=', 'paypal_sandbox_webhook_key')
        .executeTakeFirst()
    )?.value;
    const body = JSON.stringify(event);
    const id = randomUUID();
    const time = new Date().toISOString();
    const sig = createHmac('sha256', sign && key ? key : 'forged')
      .update(`${id}|${time}|${t.config.paypalCheckout.webhookId}|${crc32(body)}`)
      .digest('base64');
    return {
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'http://localhost:3000/sandbox/paypal/certs/local',
        'paypal-transmission-id': id,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': sig,
      },
      body,
    };
  }
  const postWebhook = (webhook: { headers: Record<string, string>; body: string }) =>
    t.server.inject({ method: 'POST', url: '/webhooks/paypal', headers: webhook.headers, payload: webhook.body });

  async function paidOrder(price = 2500) {
    const order = await newOrder(price);
    const token = await handoff(order.orderCode);
    const back = await approve(token);
    await returnWith(back.search.slice(1));
    return { ...order, token, row: await orderRow(order.orderCode) };
  }

  it('creates the order with a breakdown that adds up, sends the shopper to approve it, and captures once on return', async () => {
    const order = await newOrder(1250, 2);
    const token = await handoff(order.orderCode);
    const request = created.at(-1) as Record<string, any>;
    const unit = request.purchase_units[0];
    expect(request.intent).toBe('CAPTURE');
    expect(unit.invoice_id).toBe(String(order.orderNumber));
    expect(unit.amount).toEqual({
      currency_code: 'GBP',
      value: '34.95',
      breakdown: {
        item_total: { currency_code: 'GBP', value: '25.00' },
        shipping: { currency_code: 'GBP', value: '9.95' },
        discount: { currency_code: 'GBP', value: '0.00' },
      },
    });
    expect(unit.items).toEqual([
      expect.objectContaining({ quantity: '2', unit_amount: { currency_code: 'GBP', value: '12.50' } }),
    ]);
    expect(request.payment_source.paypal.experience_context.return_url).toBe(
      'http://localhost:3000/api/payments/paypal-checkout/return',
    );
    // Back before approving: nothing is taken, whatever the query string says.
    await returnWith(`token=${token}&PayerID=FAKE`);
    expect((await orderRow(order.orderCode)).status).toBe('pending_payment');

    const back = await approve(token);
    expect(back.pathname).toBe('/api/payments/paypal-checkout/return');
    await returnWith(back.search.slice(1));
    const row = await orderRow(order.orderCode);
    expect(row).toMatchObject({ status: 'paid', payment_provider: 'paypal-checkout', payment_status: 'COMPLETED' });
    expect(row.transaction_id).toMatch(/^[A-Z0-9]{17}$/);
    // The webhook that follows the capture changes nothing; one confirmation e-mail.
    await vi.waitFor(() => expect(paypal.state.webhooks.length).toBe(1));
    await returnWith(back.search.slice(1));
    expect((await eventsOf(row.id)).map((e) => e.outcome)).toEqual(['paid']);
    const mail = await deliveredMail(t);
    expect(mail.filter((m) => m.subject === `Your order ${order.orderNumber} is confirmed`)).toHaveLength(1);
    expect((await orderRow(order.orderCode)).transaction_id).toBe(row.transaction_id);
  });

  it('adds up to the penny with a voucher and with free delivery', async () => {
    const voucher = await fx.voucher({ kind: 'percent', amount: 15 });
    // £33.33 × 3 = £99.99, 15% off = £15.00 (rounded), free standard delivery from £50.
    const order = await newOrder(3333, 3, { appliedVouchers: [{ code: voucher }], deliveryMethodRateId: 2 });
    await handoff(order.orderCode);
    const row = await orderRow(order.orderCode);
    const { amount, items } = (created.at(-1) as Record<string, any>).purchase_units[0];
    const pence = (v: { value: string }) => Math.round(Number(v.value) * 100);
    expect(pence(amount.breakdown.shipping)).toBe(0);
    expect(pence(amount.breakdown.discount)).toBe(row.discount_amount);
    expect(row.discount_amount).toBeGreaterThan(0);
    expect(items.reduce((s: number, i: any) => s + pence(i.unit_amount) * Number(i.quantity), 0)).toBe(
      pence(amount.breakdown.item_total),
    );
    expect(
      pence(amount.breakdown.item_total) + pence(amount.breakdown.shipping) - pence(amount.breakdown.discount),
    ).toBe(pence(amount));
    expect(pence(amount)).toBe(row.total_including_delivery);
  });

  it('leaves a cancelled approval unpaid and its order recoverable', async () => {
    const order = await newOrder();
    const back = await approve(await handoff(order.orderCode), 'cancel');
    expect(back.pathname).toBe('/payment-declined');
    expect((await orderRow(order.orderCode)).status).toBe('pending_payment');
    const recovered = await t.app.inject({ method: 'GET', url: `/api/recover-basket/${order.orderCode}` });
    expect(recovered.statusCode).toBe(200);
  });

  it('captures once when the first capture timed out and is tried again', async () => {
    const order = await newOrder();
    const token = await handoff(order.orderCode);
    const back = await approve(token);
    let captureCalls = 0;
    paypal.state.intercept = async (url, _init, forward) => {
      if (!url.endsWith('/capture')) return forward();
      captureCalls += 1;
      const answer = await forward();
      // PayPal took the first capture, but its answer never reached the shop.
      if (captureCalls === 1) throw new DOMException('The operation timed out.', 'TimeoutError');
      return answer;
    };
    await returnWith(back.search.slice(1));
    expect(captureCalls).toBe(2);
    const row = await orderRow(order.orderCode);
    expect(row.status).toBe('paid');
    const sandboxOrder = await sandboxGet(`/v2/checkout/orders/${token}`);
    expect(sandboxOrder.purchase_units[0].payments.captures).toHaveLength(1);
    expect(sandboxOrder.purchase_units[0].payments.captures[0].id).toBe(row.transaction_id);
  });

  async function sandboxGet(path: string) {
    const tokenAnswer = await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/v1/oauth2/token',
      headers: {
        authorization: `Basic ${Buffer.from('local-sandbox-client:local-sandbox-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    const answer = await t.app.inject({
      method: 'GET',
      url: `/sandbox/paypal${path}`,
      headers: { authorization: `Bearer ${tokenAnswer.json().access_token}` },
    });
    return answer.json();
  }

  it('applies a capture once when the return and its webhook arrive together', async () => {
    const order = await newOrder();
    const token = await handoff(order.orderCode);
    const back = await approve(token);
    paypal.state.holdWebhooks = true;
    let captureCalls = 0;
    paypal.state.intercept = async (url, _init, forward) => {
      if (!url.endsWith('/capture')) return forward();
      captureCalls += 1;
      if (captureCalls === 1) await forward();
      if (captureCalls <= 2) throw new DOMException('The operation timed out.', 'TimeoutError');
      return forward();
    };
    const before = paypal.state.webhooks.length;
    await returnWith(back.search.slice(1));
    expect((await orderRow(order.orderCode)).status).toBe('pending_payment');
    await vi.waitFor(() => expect(paypal.state.webhooks.length).toBe(before + 1));
    const webhook = paypal.state.webhooks.at(-1) as { headers: Record<string, string>; body: string };
    const answers = await Promise.all([
      returnWith(back.search.slice(1)),
      postWebhook(webhook),
      postWebhook(webhook),
      returnWith(back.search.slice(1)),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([303, 200, 200, 303]);
    const row = await orderRow(order.orderCode);
    expect(row.status).toBe('paid');
    expect((await eventsOf(row.id)).filter((e) => e.outcome === 'paid')).toHaveLength(1);
    const mail = await deliveredMail(t);
    expect(mail.filter((m) => m.subject === `Your order ${order.orderNumber} is confirmed`)).toHaveLength(1);
  });

  it('changes nothing for forged, replayed or mismatched webhooks, or a return naming another order', async () => {
    const order = await newOrder();
    const token = await handoff(order.orderCode);
    await approve(token);
    const row = await orderRow(order.orderCode);
    const capture = (total: string, currency = 'GBP', orderId = token, invoice = String(order.orderNumber)) => ({
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: `CAP${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
        status: 'COMPLETED',
        amount: { currency_code: currency, value: total },
        invoice_id: invoice,
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    });
    // Forged: a signature the sandbox (PayPal) did not make.
    expect((await postWebhook(await signedWebhook(capture('34.95'), false))).statusCode).toBe(200);
    // Genuine signatures on events that do not match the order.
    const other = await newOrder();
    const otherToken = await handoff(other.orderCode);
    for (const event of [
      capture('1.00'),
      capture('34.95', 'USD'),
      capture('34.95', 'GBP', otherToken),
      capture('34.95', 'GBP', 'NOTAPAYPALORDER'),
    ])
      expect((await postWebhook(await signedWebhook(event))).statusCode).toBe(200);
    // A return whose token names another order pays nothing here.
    await returnWith(`token=${otherToken}&PayerID=X`);
    expect(await orderRow(order.orderCode)).toMatchObject({ status: 'pending_payment', transaction_id: null });
    expect((await orderRow(other.orderCode)).status).toBe('pending_payment');
    expect((await eventsOf(row.id)).map((e) => e.outcome)).toEqual([
      'rejected: wrong amount',
      'rejected: wrong currency',
      "rejected: not this order's PayPal order",
      "rejected: not this order's PayPal order",
    ]);
    // A genuine event, then the same event replayed: applied once.
    const genuine = await signedWebhook(capture('34.95'));
    await postWebhook(genuine);
    const paid = await orderRow(order.orderCode);
    expect(paid.status).toBe('paid');
    await postWebhook(genuine);
    await postWebhook({ ...genuine, headers: { ...genuine.headers, 'paypal-transmission-id': randomUUID() } });
    expect((await eventsOf(row.id)).filter((e) => e.outcome === 'paid')).toHaveLength(1);
    expect((await orderRow(order.orderCode)).updated_at).toBe(paid.updated_at);
  });

  it('answers 503 to a webhook when PayPal cannot verify it, so PayPal delivers it again', async () => {
    const { row, orderNumber } = await paidOrder();
    paypal.state.intercept = async (url, _init, forward) => {
      if (url.includes('verify-webhook-signature')) throw new TypeError('fetch failed');
      return forward();
    };
    const event = {
      id: 'WH-1',
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource: {
        id: 'REF1',
        status: 'COMPLETED',
        amount: { currency_code: 'GBP', value: '1.00' },
        invoice_id: String(orderNumber),
      },
    };
    expect((await postWebhook(await signedWebhook(event))).statusCode).toBe(503);
    expect((await orderRow(row.order_code)).refunded_total).toBe(0);
  });

  it('answers a forged webhook alike for a known and an unknown order number while PayPal cannot verify it', async () => {
    const { orderNumber } = await paidOrder();
    paypal.state.intercept = async (url, _init, forward) => {
      if (url.includes('verify-webhook-signature')) throw new TypeError('fetch failed');
      return forward();
    };
    // A stranger guessing order numbers: nothing may be looked up before PayPal vouches for the
    // event, or the answer tells which numbers exist.
    const forged = (invoice: string) => ({
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: 'CAPFORGED',
        status: 'COMPLETED',
        amount: { currency_code: 'GBP', value: '34.95' },
        invoice_id: invoice,
      },
    });
    const answers = [];
    for (const invoice of [String(orderNumber), '987654321', 'not-a-number']) {
      const answer = await postWebhook(await signedWebhook(forged(invoice), false));
      answers.push({ status: answer.statusCode, body: answer.body });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[1]).toEqual(answers[2]);
    // PayPal delivers again what was not taken, so the event is not lost once PayPal answers.
    expect(answers[0]?.status).toBe(503);
  });

  it('does not ask PayPal about a post that carries none of its signature headers', async () => {
    const asked: string[] = [];
    paypal.state.intercept = async (url, _init, forward) => {
      asked.push(url);
      return forward();
    };
    // Anyone can post here; a post PayPal did not sign is not worth a call to PayPal on its behalf.
    const { body, headers } = await signedWebhook({
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
    });
    for (const missing of ['paypal-transmission-sig', 'paypal-transmission-id', 'paypal-cert-url']) {
      const partial = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== missing));
      const answer = await postWebhook({ headers: partial, body });
      expect(answer.statusCode).toBe(200);
    }
    expect((await postWebhook({ headers: { 'content-type': 'application/json' }, body: '{}' })).statusCode).toBe(200);
    expect(asked).toEqual([]);
  });
});
