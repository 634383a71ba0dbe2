import { createHmac, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
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
 * One shop order, two PayPal orders (two handoffs: two tabs, or back and pay again), both
 * approved (docs/rules.md#payments): their returns at the same moment capture one of them, never
 * both. A second payment that arrives all the same is recorded with its id and amount, and the
 * order flagged for staff to refund it.
 */
describe('two payments for one order', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const paypal = injectedPaypal();
  /** The PayPal orders the sandbox captured (a replay of one, by its PayPal-Request-Id, moves no money). */
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
  const newOrder = async () => placeOrder(t, (await fx.product(2500, 20)).stockId);
  const approvedPaypalOrder = (orderCode: string) => approvedPaypalReturn(t, orderCode);

  /** A webhook signed as PayPal (here its sandbox) signs a genuine one. */
  async function signedWebhook(event: object) {
    const key = (
      await t.db.kysely
        .selectFrom('settings')
        .select('value')
        .where('name', '=', 'paypal_sandbox_webhook_key')
        .executeTakeFirstOrThrow()
    ).value;
    const body = JSON.stringify(event);
    const id = randomUUID();
    const time = new Date().toISOString();
    const sig = createHmac('sha256', key)
      .update(`${id}|${time}|${t.config.paypalCheckout.webhookId}|${crc32(body)}`)
      .digest('base64');
    return t.server.inject({
      method: 'POST',
      url: '/webhooks/paypal',
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'http://localhost:3000/sandbox/paypal/certs/local',
        'paypal-transmission-id': id,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': sig,
      },
      payload: body,
    });
  }

  it('captures one of two approved PayPal orders when both returns arrive at once', async () => {
    const order = await newOrder();
    const first = await approvedPaypalOrder(order.orderCode);
    const second = await approvedPaypalOrder(order.orderCode);
    const returns = await Promise.all(
      [first, second, first, second].map(({ returnUrl }) => t.app.inject({ method: 'GET', url: returnUrl })),
    );
    expect(returns.map((answer) => answer.statusCode)).toEqual([303, 303, 303, 303]);
    expect(captured.size).toBe(1);
    const detail = await adminOrder(order.orderNumber);
    expect(detail).toMatchObject({ status: 'paid', paymentsToRefund: [] });
    // Later returns of either find the order paid and capture nothing.
    await t.app.inject({ method: 'GET', url: second.returnUrl });
    await t.app.inject({ method: 'GET', url: first.returnUrl });
    expect(captured.size).toBe(1);
  });

  it('records a second capture that arrives all the same, with its id and amount, for staff to refund', async () => {
    const order = await newOrder();
    const first = await approvedPaypalOrder(order.orderCode);
    const second = await approvedPaypalOrder(order.orderCode);
    await t.app.inject({ method: 'GET', url: first.returnUrl });
    const paid = await adminOrder(order.orderNumber);
    expect(paid.status).toBe('paid');
    // PayPal reports a capture of the other PayPal order (made where the shop did not ask for it).
    const answer = await signedWebhook({
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: 'SECONDCAPTURE0001',
        status: 'COMPLETED',
        amount: { currency_code: 'GBP', value: '34.95' },
        invoice_id: String(order.orderNumber),
        supplementary_data: { related_ids: { order_id: second.token } },
      },
    });
    expect(answer.statusCode).toBe(200);
    const detail = await adminOrder(order.orderNumber);
    expect(detail).toMatchObject({
      status: 'paid',
      transactionId: paid.transactionId,
      refundedTotal: 0,
      paymentsToRefund: [
        { provider: 'paypal-checkout', reference: 'SECONDCAPTURE0001', amount: 3495, reason: 'paid twice' },
      ],
    });
    expect(detail.paymentEvents.at(-1)).toMatchObject({ providerStatus: 'COMPLETED', outcome: 'paid twice' });
    // The same capture reported again is not a third payment.
    await signedWebhook({
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: 'SECONDCAPTURE0001',
        status: 'COMPLETED',
        amount: { currency_code: 'GBP', value: '34.95' },
        invoice_id: String(order.orderNumber),
        supplementary_data: { related_ids: { order_id: second.token } },
      },
    });
    expect((await adminOrder(order.orderNumber)).paymentsToRefund).toHaveLength(1);
  });
});

/**
 * PayPal Standard (and Opayo Form) take the money on their own page: the shop cannot stop a second
 * payment for one order, so it records it with its id and amount and flags it for a refund.
 */
describe('a second payment through a provider that takes it on its own page', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;

  beforeAll(async () => {
    // PayPal answers every IPN the shop asks it about as genuine.
    const fetch = (async () => new Response('VERIFIED')) as unknown as typeof globalThis.fetch;
    ({ t, fx, cookie } = await shopForPayments({}, { fetch }));
  });
  afterAll(() => t.close());

  const ipn = (orderNumber: number, txnId: string) => completedPaymentIpn(t, orderNumber, txnId);

  it('keeps the first payment and flags the second, by its PayPal transaction id, for a refund', async () => {
    const committed = await placeOrder(t, (await fx.product(2500, 5)).stockId);
    await ipn(committed.orderNumber, 'FIRSTTXN000000001');
    await ipn(committed.orderNumber, 'SECONDTXN00000002');
    // The first again: the same payment, not a third.
    await ipn(committed.orderNumber, 'FIRSTTXN000000001');
    const detail = await backOffice(t, cookie).order(committed.orderNumber);
    expect(detail).toMatchObject({
      status: 'paid',
      transactionId: 'FIRSTTXN000000001',
      paymentsToRefund: [{ provider: 'paypal', reference: 'SECONDTXN00000002', amount: 3495, reason: 'paid twice' }],
    });
  });
});
