import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { crashAfterCommit } from '../../../test/helpers/crash-after-commit.ts';
import { deliveredMail } from '../../../test/helpers/outbox.ts';
import { approvedPaypalReturn, completedPaymentIpn, orderRow, placeOrder } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * The e-mail a payment causes (confirmation, payment failed) is queued in the payment's own
 * transaction (docs/rules.md#mail): a process that dies the moment the payment commits has
 * already queued its mail, and whichever instance runs next sends it. Queued after the commit,
 * a confirmation was lost with the process, and the provider, told 200, never asks again.
 */

interface Shop {
  t: TestApp;
  fault: ReturnType<typeof crashAfterCommit>;
  paypal: ReturnType<typeof injectedPaypal>;
  stockId: number;
}

async function shop(env: Record<string, string>, verifyIpn = false): Promise<Shop> {
  // The process dies right after the transaction that records a payment event commits.
  const fault = crashAfterCommit(/^insert into "payment_events"/);
  const paypal = injectedPaypal();
  const ipnVerified = (async () => new Response('VERIFIED')) as unknown as typeof fetch;
  const t = await createTestApp({
    env: { RATE_LIMIT_FACTOR: '100', ...env },
    paymentFetch: verifyIpn ? ipnVerified : paypal.fetch,
    log: (event) => fault.log(event),
    wrapDb: (db) => fault.wrapDb(db),
  });
  paypal.state.app = t.server;
  const fx = await checkoutFixtures(t.db);
  return { t, fault, paypal, stockId: (await fx.product(2500, 20)).stockId };
}

/** The shopper at Opayo's page with a card, and back at the shop with its answer. */
async function throughOpayo(t: TestApp, order: { orderNumber: number; orderCode: string }, card: string) {
  const registration = (
    await t.app.inject({ method: 'GET', url: `/api/sagepay-config/${order.orderNumber}?code=${order.orderCode}` })
  ).json();
  const answered = await t.app.inject({
    method: 'POST',
    url: '/sandbox/opayo/pay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ Crypt: registration.crypt, card, action: 'pay' }).toString(),
  });
  const back = new URL(answered.headers.location as string);
  return () => t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
}

type Order = { orderNumber: number; orderCode: string };

/** Each way a payment's result reaches the shop, and the mail it causes. */
const paths: Array<{
  name: string;
  env: Record<string, string>;
  verifyIpn?: boolean;
  /** Brings the shopper to the moment before the provider's answer; answers the call that delivers it. */
  prepare: (s: Shop, order: Order) => Promise<() => Promise<unknown>>;
  status: string;
  subject: (orderNumber: number) => string;
}> = [
  {
    name: 'a PayPal Standard IPN',
    env: {},
    verifyIpn: true,
    prepare: async (s, order) => () => completedPaymentIpn(s.t, order.orderNumber, 'CRASHTXN000000001'),
    status: 'paid',
    subject: (n) => `Your order ${n} is confirmed`,
  },
  {
    name: 'an Opayo return (paid)',
    env: { PAYMENT_PROVIDER: 'opayo' },
    prepare: (s, order) => throughOpayo(s.t, order, '4929000000006'),
    status: 'paid',
    subject: (n) => `Your order ${n} is confirmed`,
  },
  {
    name: 'an Opayo return (declined)',
    env: { PAYMENT_PROVIDER: 'opayo' },
    prepare: (s, order) => throughOpayo(s.t, order, '4000000000000002'),
    status: 'payment_failed',
    subject: (n) => `Your payment for order ${n} did not go through`,
  },
  {
    name: "a PayPal Checkout return's capture",
    env: { PAYPAL_INTEGRATION: 'checkout' },
    prepare: async (s, order) => {
      // The webhook that follows the capture is held back: the return alone pays the order.
      s.paypal.state.holdWebhooks = true;
      const { returnUrl } = await approvedPaypalReturn(s.t, order.orderCode);
      return () => s.t.app.inject({ method: 'GET', url: returnUrl });
    },
    status: 'paid',
    subject: (n) => `Your order ${n} is confirmed`,
  },
  {
    name: 'a PayPal Checkout webhook',
    env: { PAYPAL_INTEGRATION: 'checkout' },
    prepare: async (s, order) => {
      s.paypal.state.holdWebhooks = true;
      // PayPal captures, but its answers never reach the shop: the webhook is what pays the order.
      s.paypal.state.intercept = async (url, _init, forward) => {
        if (!url.endsWith('/capture')) return forward();
        await forward();
        throw new DOMException('The operation timed out.', 'TimeoutError');
      };
      const { returnUrl } = await approvedPaypalReturn(s.t, order.orderCode);
      await s.t.app.inject({ method: 'GET', url: returnUrl });
      delete s.paypal.state.intercept;
      expect((await orderRow(s.t, order.orderNumber)).status).toBe('pending_payment');
      // The sandbox sends its webhook in the background.
      const webhook = await vi.waitFor(() => {
        const sent = s.paypal.state.webhooks.find((w) => w.body.includes('PAYMENT.CAPTURE.COMPLETED'));
        expect(sent).toBeDefined();
        return sent;
      });
      return () =>
        s.t.server.inject({
          method: 'POST',
          url: '/webhooks/paypal',
          headers: webhook!.headers,
          payload: webhook!.body,
        });
    },
    status: 'paid',
    subject: (n) => `Your order ${n} is confirmed`,
  },
];

describe("a payment's e-mail and a crash right after the payment commits", () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const closable of open.splice(0).reverse()) await closable.close();
  });

  it.each(paths)('the mail caused by $name is already queued, and sent after a restart', async (path) => {
    const s = await shop(path.env, path.verifyIpn);
    open.push(s.t);
    const order = await placeOrder(s.t, s.stockId);
    const deliver = await path.prepare(s, order);

    s.fault.arm();
    await deliver().catch(() => undefined);
    expect(s.fault.state.dead).toBe(true);
    s.fault.restart();

    // The payment committed before the process died.
    expect((await orderRow(s.t, order.orderNumber)).status).toBe(path.status);
    // The next instance to run sends what was queued with it.
    const next = await createSecondInstance(s.t);
    open.push(next);
    const mail = await deliveredMail({ db: s.t.db, outboxDir: s.t.outboxDir, app: next.app });
    const buyer = (await orderRow(s.t, order.orderNumber)).email;
    expect(mail.filter((m) => m.subject === path.subject(order.orderNumber)).map((m) => m.to)).toEqual([buyer]);
  });

  it('queues no mail for a payment that rolled back, and one when the provider asks again', async () => {
    const s = await shop({}, true);
    open.push(s.t);
    const order = await placeOrder(s.t, s.stockId);
    s.fault.failInsertsInto('payment_events');
    await completedPaymentIpn(s.t, order.orderNumber, 'ROLLBACKTXN000001').catch(() => undefined);
    s.fault.restart();
    expect((await orderRow(s.t, order.orderNumber)).status).toBe('pending_payment');
    const queued = () =>
      s.t.db.kysely
        .selectFrom('mail_queue')
        .select('subject')
        .where('subject', '=', `Your order ${order.orderNumber} is confirmed`)
        .execute();
    expect(await queued()).toEqual([]);
    // PayPal posts the IPN again until it is answered.
    await completedPaymentIpn(s.t, order.orderNumber, 'ROLLBACKTXN000001');
    expect((await orderRow(s.t, order.orderNumber)).status).toBe('paid');
    expect(await queued()).toHaveLength(1);
  });
});
