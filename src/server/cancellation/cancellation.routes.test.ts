import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CancellationOptions } from '../../contract/cancellation.ts';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { paidGuestOrder } from '../../../test/helpers/paid-orders.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import type { AdapterFactory, ProviderRefundResult } from '../payments/payment-provider.ts';
import { refundThroughProvider } from '../orders/order-lifecycle.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { createOrdersAdminService } from '../orders/orders.admin-service.ts';
import { createPaymentsService } from '../payments/payments.service.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import type { MailMessage } from '../mail/mailer.ts';

/**
 * Cancelling before dispatch from the order page (docs/rules.md#cancelling-before-dispatch): the
 * refund through the provider at once (goods, their voucher share, and delivery for the whole
 * order), the units back in stock, both sides e-mailed once (the shopper by the refund's e-mail), and a cancellation racing a dispatch
 * of the same units ending one way only.
 */

/** Every message as queued: the worker may send one (and drop its body) before a test reads the row. */
const { queuedMail } = vi.hoisted(() => ({ queuedMail: [] as MailMessage[] }));
vi.mock('../mail/mail-queue.repository.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../mail/mail-queue.repository.ts')>();
  return {
    ...original,
    insertMail: (...args: Parameters<typeof original.insertMail>) => {
      queuedMail.push(args[1]);
      return original.insertMail(...args);
    },
  };
});

/** What the fake provider answers next: it refunds, or gives no answer. */
let nextAnswer: 'refunded' | 'unknown' = 'refunded';
/** What it answers when asked again about a refund it did not confirm (the sweep). */
let nextSettle: 'refused' | 'unknown' = 'refused';
const refundsAsked: Array<{ orderNumber: number; amount: number }> = [];

const fakeProvider: AdapterFactory = () => ({
  id: 'fake',
  async handoff(order) {
    return { kind: 'redirect', url: `https://fake.example/pay/${order.order_number}` };
  },
  routes: [],
  async settleRefund(): Promise<ProviderRefundResult> {
    return nextSettle === 'refused'
      ? { outcome: 'refused', reason: 'no such refund' }
      : { outcome: 'unknown', reason: 'timed out' };
  },
  async refund({ order, amount, requestId }): Promise<ProviderRefundResult> {
    refundsAsked.push({ orderNumber: order.order_number, amount });
    if (nextAnswer === 'unknown') return { outcome: 'unknown', reason: 'timed out' };
    const reference = `FAKE-C${refundsAsked.length}-${Date.now()}`;
    return {
      outcome: 'refunded',
      event: {
        type: 'refunded',
        key: `fake:${reference}`,
        providerStatus: 'refunded',
        body: JSON.stringify({ reference, amount }),
        orderNumber: order.order_number,
        amount,
        currency: 'GBP',
        reference,
        paymentReference: order.transaction_id ?? '',
        requestId,
      },
    };
  },
});

describe('cancelling before dispatch from the order page', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let count = 0;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, paymentAdapters: { fake: fakeProvider } });
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
  });
  beforeEach(() => {
    nextAnswer = 'refunded';
    nextSettle = 'refused';
  });
  afterAll(() => t.close());

  const k = () => t.db.kysely;
  const orderRow = (orderNumber: number) =>
    k().selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();

  /** A paid order (paid through the fake provider) of lines of these prices and units, with express delivery (995). */
  async function paidOrder(
    lines: Array<[price: number, units: number]>,
    extra: { voucherCodeAttempt?: string; deliveryMethodRateId?: number } = {},
  ) {
    const products = await Promise.all(lines.map(([price]) => fx.product(price, 10)));
    const email = `cancel${++count}.${Date.now()}@example.com`;
    const { orderNumber, row: order } = await paidGuestOrder(
      t,
      products.map((p, i) => ({ stockId: p.stockId, quantity: lines[i]![1] })),
      {
        email,
        remoteAddress: `10.9.${count % 250}.${(count * 7) % 250}`,
        provider: 'fake',
        providerStatus: 'captured',
        paidAt: new Date().toISOString(),
        extra,
      },
    );
    const key = createOrderLinks(t.config.sessionSecret!).keyOf(orderNumber, order.link_version);
    const lineIds = (
      await k().selectFrom('order_lines').select('id').where('order_id', '=', order.id).orderBy('id').execute()
    ).map((line) => line.id);
    return { orderNumber, key, email, products, lineIds };
  }

  const options = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/order-page/${key}/cancellation` })).json() as CancellationOptions;
  const cancel = (key: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/order-page/${key}/cancellation`, payload });
  const dispatch = (orderNumber: number, lines: Array<{ orderLineId: number; quantity: number }>, app = t.app) =>
    app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNumber}/dispatch`,
      headers: { cookie },
      payload: { lines, untracked: { service: 'Royal Mail 1st Class' } },
    });
  const mailsTo = (recipient: string) =>
    k().selectFrom('mail_queue').select(['subject', 'paragraphs']).where('recipient', '=', recipient).execute();
  const mailQueueSettled = () => deliveredMail(t);
  const cancellationMails = async (email: string, orderNumber: number) => ({
    shopper: (await mailsTo(email)).filter((m) => /cancelled/.test(m.subject)),
    shop: (await mailsTo(t.config.ordersEmail)).filter(
      (m) =>
        m.subject.includes(`order ${orderNumber} cancelled`) || m.subject.includes(`Order ${orderNumber} cancelled`),
    ),
  });

  it('cancels a whole order: goods and delivery refunded at once, the units back in stock, e-mails queued once each', async () => {
    const { orderNumber, key, email, products } = await paidOrder([
      [2500, 2],
      [1200, 1],
    ]);
    const before = await options(key);
    expect(before).toMatchObject({ cancellable: true, wholeOrderRefund: 2500 * 2 + 1200 + 995 });
    expect(before.lines.map((line) => line.cancellableUnits)).toEqual([2, 1]);

    const answer = await cancel(key, { whole: true });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ outcome: 'refunded', whole: true, amount: 7195 });
    expect(refundsAsked.at(-1)).toEqual({ orderNumber, amount: 7195 });
    const row = await orderRow(orderNumber);
    expect(row).toMatchObject({
      status: 'paid',
      refunded_total: row.total_including_delivery,
      fulfilment: 'unfulfilled',
    });
    expect(await fx.stockOf(products[0]!.stockId)).toBe(10);
    expect(await fx.stockOf(products[1]!.stockId)).toBe(10);
    // Nothing is left to cancel, nor to dispatch; the order's page says it is cancelled.
    expect(await options(key)).toMatchObject({ cancellable: false, wholeOrderRefund: null });
    const page = (await t.app.inject({ method: 'GET', url: `/api/order-page/${key}` })).json();
    expect(page).toMatchObject({
      payment: { status: 'refunded', words: 'Refunded in full' },
      fulfilment: { status: 'unfulfilled', words: 'Cancelled: nothing will be sent' },
    });
    expect((await cancel(key, { whole: true })).statusCode).toBe(409);
    const mails = await cancellationMails(email, orderNumber);
    // The shopper's one message is the refund's, naming the cancellation and its units.
    expect(mails.shopper).toHaveLength(0);
    const refundMails = (await mailsTo(email)).filter((m) => m.subject === `Your refund for order ${orderNumber}`);
    expect(refundMails).toHaveLength(1);
    expect(refundMails[0]!.paragraphs).toContain('"amount":7195');
    expect(refundMails[0]!.paragraphs).toContain('Order cancelled by the customer');
    expect(refundMails[0]!.paragraphs).not.toContain(key);
    expect(mails.shop[0]!.paragraphs).toContain('Do not send this order.');
    expect(mails.shop).toHaveLength(1);
    const audit = await k()
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', String(orderNumber))
      .where('action', '=', 'order.cancel-by-customer')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ staff_id: null, staff_email: email });
  });

  it('e-mails the shopper once per cancellation, with a button to the order page made when sent, its key never queued', async () => {
    const { key, email } = await paidOrder([[2500, 1]]);
    await mailQueueSettled();
    const before = (await mailsTo(email)).length;
    expect((await cancel(key, { whole: true })).statusCode).toBe(200);
    // One message, not a refund e-mail and a cancellation e-mail.
    const queued = await mailsTo(email);
    expect(queued).toHaveLength(before + 1);
    // The order page's key is a secret: the queue keeps the order's number, the link is made at sending.
    const toShopper = queuedMail.filter((message) => message.to === email);
    expect(toShopper.length).toBeGreaterThanOrEqual(1);
    for (const message of toShopper) expect(JSON.stringify(message)).not.toContain(key);
    const sent = (await deliveredMail(t)).filter((m) => m.to === email).at(-1)!;
    const html = decodeQuotedPrintable(sent.raw);
    // The refund's e-mail: what was cancelled, and its button to the order page.
    expect(sent.subject).toMatch(/refund/);
    expect(html).toContain('Order cancelled by the customer');
    expect(html).toMatch(new RegExp(`<a href="[^"]*/order/${key}"[^>]*>((?!</a>)[\\s\\S])*View order`));
  });

  it('e-mails the shopper once when the refund is pending, the key never queued, with the button when sent', async () => {
    const { key, email } = await paidOrder([[2500, 1]]);
    await mailQueueSettled();
    const before = (await mailsTo(email)).length;
    nextAnswer = 'unknown';
    expect((await cancel(key, { whole: true })).statusCode).toBe(200);
    const queued = await mailsTo(email);
    expect(queued).toHaveLength(before + 1);
    const toShopper = queuedMail.filter((message) => message.to === email);
    expect(toShopper.length).toBeGreaterThanOrEqual(1);
    for (const message of toShopper) expect(JSON.stringify(message)).not.toContain(key);
    const sent = (await deliveredMail(t)).filter((m) => m.to === email).at(-1)!;
    expect(sent.subject).toMatch(/cancelled/);
    expect(decodeQuotedPrintable(sent.raw)).toMatch(
      new RegExp(`<a href="[^"]*/order/${key}"[^>]*>((?!</a>)[\\s\\S])*View your order`),
    );
  });

  it('cancels some units: their price less their voucher share, no delivery, and the rest still to dispatch', async () => {
    const voucher = await fx.voucher({ kind: 'percent', amount: 10 });
    const { orderNumber, key, products, lineIds } = await paidOrder(
      [
        [2500, 2],
        [1200, 1],
      ],
      { voucherCodeAttempt: voucher },
    );
    const row = await orderRow(orderNumber);
    expect(row.discount_amount).toBe(620);
    const answer = await cancel(key, { lines: [{ lineId: lineIds[0], quantity: 1 }] });
    expect(answer.statusCode, answer.body).toBe(200);
    // 2500 less 2500/6200 of the 620 discount: 250.
    expect(answer.json()).toMatchObject({ outcome: 'refunded', whole: false, amount: 2250 });
    expect((await orderRow(orderNumber)).refunded_total).toBe(2250);
    expect(await fx.stockOf(products[0]!.stockId)).toBe(9);
    expect((await options(key)).lines.map((line) => line.cancellableUnits)).toEqual([1, 1]);
    // The cancelled unit cannot be sent; the rest can.
    expect((await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 2 }])).statusCode).toBe(409);
    const rest = await dispatch(orderNumber, [
      { orderLineId: lineIds[0]!, quantity: 1 },
      { orderLineId: lineIds[1]!, quantity: 1 },
    ]);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ fulfilment: 'dispatched' });
  });

  it('refunds exactly what was paid when an order is cancelled a unit at a time: the voucher’s pennies are not lost to rounding', async () => {
    // £2 off three £10 units: a third of it is 66.67p, which rounded alone thrice gives 201p back.
    const voucher = await fx.voucher({ kind: 'fixed', amount: 200 });
    const { orderNumber, key, lineIds } = await paidOrder([[1000, 3]], { voucherCodeAttempt: voucher });
    const row = await orderRow(orderNumber);
    expect(row.discount_amount).toBe(200);
    const amounts: number[] = [];
    for (let unit = 0; unit < 3; unit++) {
      const answer = await cancel(key, { lines: [{ lineId: lineIds[0], quantity: 1 }] });
      expect(answer.statusCode, answer.body).toBe(200);
      amounts.push(answer.json().amount);
    }
    expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBe(row.total_including_delivery);
    expect((await orderRow(orderNumber)).refunded_total).toBe(row.total_including_delivery);
  });

  it('tells the loser of two identical cancellations at once that the items are cancelled already, not sent', async () => {
    for (const whole of [false, true]) {
      const { orderNumber, key, lineIds } = await paidOrder([
        [2500, 1],
        [1200, 1],
      ]);
      const body = whole ? { whole: true } : { lines: [{ lineId: lineIds[0], quantity: 1 }] };
      const answers = await Promise.all([cancel(key, body), cancel(key, body)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.statusCode === 409)!.json().error.message as string;
      expect(loser).not.toMatch(/sent/);
      expect(loser).toMatch(whole ? /refunded in full|cancelled already/ : /cancelled already/);
      const row = await orderRow(orderNumber);
      expect(row.refunded_total).toBe(whole ? row.total_including_delivery : 2500);
    }
  });

  it('never refunds more than was paid: a cancellation after a staff refund is capped at what is left', async () => {
    const { orderNumber, key } = await paidOrder([[2500, 1]]);
    const total = (await orderRow(orderNumber)).total_including_delivery;
    const staffRefund = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNumber}/refund`,
      headers: { cookie },
      payload: { amount: 3000, reason: 'Goodwill' },
    });
    expect(staffRefund.statusCode, staffRefund.body).toBe(200);
    const answer = await cancel(key, { whole: true });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().amount).toBe(total - 3000);
    expect((await orderRow(orderNumber)).refunded_total).toBe(total);
  });

  it('refuses once the units are dispatched, with a return offered', async () => {
    const { orderNumber, key, lineIds } = await paidOrder([[2500, 2]]);
    expect((await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 1 }])).statusCode).toBe(200);
    const whole = await cancel(key, { whole: true });
    expect(whole.statusCode).toBe(409);
    // The unit still to come may be cancelled; the one sent may not.
    expect((await options(key)).lines[0]!.cancellableUnits).toBe(1);
    const two = await cancel(key, { lines: [{ lineId: lineIds[0], quantity: 2 }] });
    expect(two.statusCode).toBe(409);
    expect(two.json().error.message).toMatch(/just been sent.*return it once it arrives/);
    expect((await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 1 }])).statusCode).toBe(200);
    expect(await options(key)).toMatchObject({ cancellable: false });
    expect((await options(key)).notCancellable).toMatch(/has been sent/);
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
  });

  it('refuses a collection order once it is ready for collection', async () => {
    await fx.collectionMethod(900_400, 'Collect from the shop');
    const { orderNumber, key } = await paidOrder([[2500, 1]], { deliveryMethodRateId: 900_400 });
    const ready = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNumber}/ready-for-collection`,
      headers: { cookie },
    });
    expect(ready.statusCode, ready.body).toBe(200);
    expect((await options(key)).notCancellable).toMatch(/ready for collection/);
    expect((await cancel(key, { whole: true })).statusCode).toBe(409);
  });

  it('tells staff which units were cancelled when their dispatch comes second', async () => {
    const { orderNumber, key, lineIds } = await paidOrder([[2500, 2]]);
    expect((await cancel(key, { whole: true })).statusCode).toBe(200);
    const refused = await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 2 }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/customer has cancelled 2 x .* do not send them/);
    expect((await orderRow(orderNumber)).fulfilment).toBe('unfulfilled');
  });

  it('keeps the reservation when the provider does not answer, and tells the shopper the refund is on its way', async () => {
    const { orderNumber, key, email, lineIds } = await paidOrder([[2500, 2]]);
    nextAnswer = 'unknown';
    const answer = await cancel(key, { lines: [{ lineId: lineIds[0], quantity: 1 }] });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ outcome: 'refund pending', amount: 2500 });
    expect(answer.json().message).toMatch(/on its way/);
    expect((await orderRow(orderNumber)).refunded_total).toBe(2500);
    // The unit is held: neither cancelled again nor sent.
    expect((await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 2 }])).statusCode).toBe(409);
    // Nothing more is cancelled until the provider confirms it (or the sweep learns it was not made).
    const meanwhile = await options(key);
    expect(meanwhile).toMatchObject({
      cancellable: false,
      notCancellable: expect.stringMatching(/still being confirmed/),
    });
    expect(meanwhile.lines[0]!.cancellableUnits).toBe(0);
    const second = await cancel(key, { lines: [{ lineId: lineIds[0], quantity: 1 }] });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toMatch(/still being confirmed/);
    expect((await orderRow(orderNumber)).refunded_total).toBe(2500);
    expect((await cancellationMails(email, orderNumber)).shopper).toHaveLength(1);
  });

  /** The sweep of refunds never confirmed, as the back office runs it, eleven minutes on. */
  const sweepLater = () =>
    createOrdersAdminService(k(), {
      now: () => new Date(Date.now() + 11 * 60_000),
      providerOf: createPaymentsService(k(), t.config, { adapters: { fake: fakeProvider } }).providerOf,
      releasedRefunds: { shopEmail: async () => t.config.ordersEmail, publicUrl: t.config.publicUrl },
    }).settleUnconfirmedRefunds();

  it('reopens a cancellation whose refund the provider never made: its units to send again, both sides told, audited once', async () => {
    const { orderNumber, key, email, lineIds } = await paidOrder([[2500, 2]]);
    nextAnswer = 'unknown';
    expect((await cancel(key, { lines: [{ lineId: lineIds[0], quantity: 1 }] })).statusCode).toBe(200);
    // Still unknown when first asked again: nothing changes.
    nextSettle = 'unknown';
    await sweepLater();
    expect((await orderRow(orderNumber)).refunded_total).toBe(2500);
    nextSettle = 'refused';
    await sweepLater();
    await sweepLater();
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
    // Both units are to send again, and may be cancelled again.
    expect((await options(key)).lines[0]!.cancellableUnits).toBe(2);
    const shopper = (await mailsTo(email)).filter((m) => /not cancelled/.test(m.subject));
    expect(shopper).toHaveLength(1);
    expect(shopper[0]!.subject).toBe(`Your items were not cancelled from order ${orderNumber}`);
    expect(shopper[0]!.paragraphs).toContain('£25.00');
    const shop = (await mailsTo(t.config.ordersEmail)).filter((m) => m.subject.includes(`order ${orderNumber}`));
    expect(shop.map((m) => m.subject)).toContain(
      `Cancellation of order ${orderNumber} undone: the refund was not made, send the items`,
    );
    const audit = await k()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity_type', '=', 'order')
      .where('entity_id', '=', String(orderNumber))
      .where('action', '=', 'order.refund-released')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ amount: 2500, refundFor: 'cancellation', refundedTotal: 0 });
    expect((await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 2 }])).statusCode).toBe(200);
  });

  it('answers wrong, revoked and guessed keys with the same 404, and checks the body field by field', async () => {
    const { orderNumber, key, lineIds } = await paidOrder([[2500, 1]]);
    const signature = key.split('.')[1]!;
    const revokedKey = createOrderLinks(t.config.sessionSecret!).keyOf(orderNumber, 99);
    const bad = [`${orderNumber}.${'A'.repeat(43)}`, `${orderNumber + 1000}.${signature}`, 'guess', revokedKey];
    const answers = await Promise.all(
      bad.flatMap((wrong) => [
        t.app.inject({ method: 'GET', url: `/api/order-page/${wrong}/cancellation` }),
        cancel(wrong, { whole: true }),
      ]),
    );
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
    expect(answers[0]!.statusCode).toBe(404);
    const empty = await cancel(key, {});
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain('lines');
    const unknownLine = await cancel(key, { lines: [{ lineId: lineIds[0]! + 100_000, quantity: 1 }] });
    expect(unknownLine.statusCode).toBe(400);
    expect(JSON.stringify(unknownLine.json())).toContain('lines.0.lineId');
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
  });

  it('refuses, after taking the order, units a dispatch sent after the shopper looked (the refund workflow itself)', async () => {
    const { orderNumber, lineIds } = await paidOrder([[2500, 2]]);
    expect((await dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 2 }])).statusCode).toBe(200);
    const order = await orderRow(orderNumber);
    const asked = refundsAsked.length;
    const answer = await refundThroughProvider(
      k(),
      { id: 'fake', refund: () => Promise.reject(new Error('must not be asked')) },
      {
        orderId: order.id,
        amount: 5000,
        requestId: `cancel-test-${orderNumber}`,
        note: 'Order cancelled by the customer',
        restock: [{ lineId: lineIds[0]!, quantity: 2 }],
        unsentOnly: true,
      },
      { now: () => new Date().toISOString(), onRefunded: async () => undefined },
    );
    expect(answer).toEqual({ refused: 'already sent' });
    expect(refundsAsked.length).toBe(asked);
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
  });

  // Two instances share PostgreSQL; two in one process on SQLite would wait for each other's lock.
  if (testDialect === 'postgres') {
    it('ends a cancellation racing a dispatch of the same units on two instances one way only', async () => {
      const second = await createSecondInstance(t);
      try {
        for (let round = 0; round < 4; round++) {
          const { orderNumber, key, lineIds, products } = await paidOrder([[2500, 2]]);
          const [cancelled, dispatched] = await Promise.all([
            cancel(key, { whole: true }),
            dispatch(orderNumber, [{ orderLineId: lineIds[0]!, quantity: 2 }], second.app),
          ]);
          expect([cancelled.statusCode, dispatched.statusCode].sort()).toEqual([200, 409]);
          const row = await orderRow(orderNumber);
          if (cancelled.statusCode === 200) {
            expect(row).toMatchObject({ fulfilment: 'unfulfilled', refunded_total: row.total_including_delivery });
            expect(await fx.stockOf(products[0]!.stockId)).toBe(10);
          } else {
            expect(cancelled.json().error.message).toMatch(/just been sent/);
            expect(row).toMatchObject({ fulfilment: 'dispatched', refunded_total: 0 });
            expect(await fx.stockOf(products[0]!.stockId)).toBe(8);
          }
        }
      } finally {
        await second.close();
      }
    });
  }
});
