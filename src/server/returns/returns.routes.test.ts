import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from '../../contract/admin/orders.ts';
import type { AdminReturn, OrderReturns } from '../../contract/returns.ts';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { TEST_SESSION_SECRET } from '../../../test/helpers/csrf.ts';
import { paidGuestOrder } from '../../../test/helpers/paid-orders.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { plainText } from '../mail/eml.ts';
import type { MailMessage } from '../mail/mailer.ts';

const DAY = 86_400_000;

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

/**
 * Returns (docs/rules.md#returns): within 14 days of delivery (or of dispatch plus the method's
 * transit days), never a made-to-order product for a change of mind, refunded through the refund
 * workflow with standard delivery on a whole order less a deduction, never more than was paid.
 */
describe('returns', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let orderCount = 0;
  const clock = manualClock(Date.parse('2026-06-01T12:00:00.000Z'));
  const links = () => createOrderLinks(t.config.sessionSecret ?? TEST_SESSION_SECRET);
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, now: clock.now });
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const orderRow = (orderNumber: number) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();

  /** A paid order of two lines (2 × £25, 1 × £12), dispatched `daysAgo` days ago, delivered or not. */
  async function dispatchedOrder(options: { daysAgo: number; delivered?: boolean; madeToOrder?: boolean }) {
    const products = [await fx.product(2500, 10), await fx.product(1200, 10)];
    if (options.madeToOrder)
      await t.db.kysely.updateTable('products').set({ made_to_order: 1 }).where('id', '=', products[0]!.id).execute();
    const { orderNumber, row: order } = await paidGuestOrder(
      t,
      products.map((p, i) => ({ stockId: p.stockId, quantity: [2, 1][i]! })),
      {
        email: `returns${++orderCount}.${Date.now()}@example.com`,
        remoteAddress: `10.9.${orderCount % 250}.${(orderCount * 7) % 250}`,
        provider: 'paypal',
        providerStatus: 'Completed',
        paidAt: new Date(clock.now()).toISOString(),
      },
    );
    const result = { orderNumber };
    const sent = await admin('POST', `/orders/${result.orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const at = new Date(clock.now() - options.daysAgo * DAY).toISOString();
    await t.db.kysely.updateTable('fulfilments').set({ created_at: at }).where('order_id', '=', order.id).execute();
    if (options.delivered)
      await t.db.kysely
        .updateTable('orders')
        .set({ delivered_at: at, fulfilment: 'delivered' })
        .where('id', '=', order.id)
        .execute();
    const lines = ((await admin('GET', `/orders/${result.orderNumber}`)).json() as OrderDetail).lines;
    const key = links().keyOf(result.orderNumber, 1);
    return { orderNumber: result.orderNumber, key, lines, order: await orderRow(result.orderNumber) };
  }

  const returnsOf = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/order-page/${key}/returns` })).json() as OrderReturns;
  const ask = (key: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/order-page/${key}/returns`, payload });
  const allLines = (lines: OrderDetail['lines']) =>
    lines.map((line) => ({ orderLineId: line.id, quantity: line.quantity }));

  it('takes a return within 14 days of delivery and refuses one past its window', async () => {
    const inTime = await dispatchedOrder({ daysAgo: 14, delivered: true });
    const view = await returnsOf(inTime.key);
    expect(view.lines.map((line) => line.returnable)).toEqual([2, 1]);
    const asked = await ask(inTime.key, {
      reason: 'changed_mind',
      lines: [{ orderLineId: inTime.lines[0]!.id, quantity: 1 }],
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ raNumber: `RA-${inTime.orderNumber}-1`, status: 'requested' });
    expect((await returnsOf(inTime.key)).lines.map((line) => line.returnable)).toEqual([1, 1]);

    const late = await dispatchedOrder({ daysAgo: 15, delivered: true });
    expect((await returnsOf(late.key)).lines.map((line) => line.returnable)).toEqual([0, 0]);
    const refused = await ask(late.key, { reason: 'faulty', lines: [{ orderLineId: late.lines[0]!.id, quantity: 1 }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual([expect.objectContaining({ field: 'lines.0.quantity' })]);

    // Delivery not recorded: dispatch plus the method's transit days (3 by default) starts the window.
    const undelivered = await dispatchedOrder({ daysAgo: 17 });
    expect((await returnsOf(undelivered.key)).lines.map((line) => line.returnable)).toEqual([2, 1]);
    const tooLong = await dispatchedOrder({ daysAgo: 18 });
    expect((await returnsOf(tooLong.key)).lines.map((line) => line.returnable)).toEqual([0, 0]);
  });

  it('refuses a made-to-order product for a change of mind, and takes it back when faulty', async () => {
    const { key, lines, orderNumber } = await dispatchedOrder({ daysAgo: 2, delivered: true, madeToOrder: true });
    const view = await returnsOf(key);
    expect(view.lines[0]).toMatchObject({ madeToOrder: true, reasons: ['faulty', 'damaged_in_transit', 'wrong_item'] });
    const mind = await ask(key, { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] });
    expect(mind.statusCode).toBe(400);
    expect(mind.json().error.fields).toEqual([expect.objectContaining({ field: 'reason' })]);
    const faulty = await ask(key, {
      reason: 'faulty',
      note: 'The skin split',
      lines: [{ orderLineId: lines[0]!.id, quantity: 1 }],
    });
    expect(faulty.statusCode, faulty.body).toBe(201);
    expect(faulty.json().raNumber).toBe(`RA-${orderNumber}-1`);
  });

  it('refunds the goods and standard delivery on a whole order, less a deduction, never more than was paid', async () => {
    const { key, lines, order } = await dispatchedOrder({ daysAgo: 3, delivered: true });
    const asked = await ask(key, { reason: 'changed_mind', lines: allLines(lines) });
    expect(asked.statusCode, asked.body).toBe(201);
    const queued = (await admin('GET', '/returns')).json().returns as AdminReturn[];
    const mine = queued.find((r) => r.raNumber === asked.json().raNumber)!;
    // 2 × £25 + £12 paid for the goods; express delivery was £9.95, standard for £62 of goods is free.
    expect(mine.refundDue).toEqual({ goods: 6200, delivery: 0, cap: order.total_including_delivery });
    expect((await admin('POST', `/returns/${mine.id}/authorise`)).statusCode).toBe(200);
    const received = await admin('POST', `/returns/${mine.id}/receive`, {
      lines: lines.map((line) => ({ orderLineId: line.id, restock: line.quantity, condition: 'as_new' })),
    });
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().refundDueAt).toBe(new Date(clock.now() + 14 * DAY).toISOString());
    const noReason = await admin('POST', `/returns/${mine.id}/refund`, { deduction: 500 });
    expect(noReason.statusCode).toBe(400);
    const refunded = await admin('POST', `/returns/${mine.id}/refund`, {
      deduction: 500,
      deductionReason: 'Scratched',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'refunded', refundAmount: 5700, deduction: 500 });
    expect((await orderRow(order.order_number)).refunded_total).toBe(5700);
    const again = await admin('POST', `/returns/${mine.id}/refund`, {});
    expect(again.statusCode).toBe(409);
  });

  it('e-mails the shopper once for a refunded return, with a button to the order page, its key never queued', async () => {
    const { key, lines, order } = await dispatchedOrder({ daysAgo: 3, delivered: true });
    const asked = await ask(key, { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] });
    expect(asked.statusCode, asked.body).toBe(201);
    const mine = ((await admin('GET', '/returns')).json().returns as AdminReturn[]).find(
      (r) => r.raNumber === asked.json().raNumber,
    )!;
    expect((await admin('POST', `/returns/${mine.id}/authorise`)).statusCode).toBe(200);
    const received = await admin('POST', `/returns/${mine.id}/receive`, {
      lines: [{ orderLineId: lines[0]!.id, restock: 1, condition: 'as_new' }],
    });
    expect(received.statusCode, received.body).toBe(200);
    const mailsToShopper = () =>
      t.db.kysely.selectFrom('mail_queue').select('id').where('recipient', '=', order.email).execute();
    const before = (await mailsToShopper()).length;
    expect((await admin('POST', `/returns/${mine.id}/refund`, {})).statusCode).toBe(200);
    // One message for the refund, not a refund e-mail and a return e-mail.
    expect(await mailsToShopper()).toHaveLength(before + 1);
    // What was queued for the shopper never held the order page's key (the worker drops a body
    // once sent, so the messages are read as queued: queuedMail).
    const queuedToShopper = queuedMail.filter((message) => message.to === order.email);
    expect(queuedToShopper.length).toBeGreaterThanOrEqual(4);
    for (const message of queuedToShopper) expect(JSON.stringify(message)).not.toContain(key);
    const sent = (await deliveredMail(t)).filter((m) => m.to === order.email);
    // The refund's e-mail names the return; each has the button to the order page, signed when sent.
    expect(plainText(sent.at(-1)!.raw)).toContain(`Return ${mine.raNumber}`);
    for (const mail of sent) expect(decodeQuotedPrintable(mail.raw)).toMatch(new RegExp(`href="[^"]*/order/${key}"`));
  });

  /** A paid order of 2 × £15 with express delivery, all dispatched: the whole-order refunds' case. */
  async function twoOfOneDispatched(email: string, remoteAddress: string) {
    const product = await fx.product(1500, 10);
    const { orderNumber, row } = await paidGuestOrder(t, [{ stockId: product.stockId, quantity: 2 }], {
      email: `${email}.${Date.now()}@example.com`,
      remoteAddress,
      provider: 'paypal',
      providerStatus: 'Completed',
      paidAt: new Date(clock.now()).toISOString(),
    });
    const result = { orderNumber };
    await admin('POST', `/orders/${result.orderNumber}/dispatch`, { untracked: { service: 'Royal Mail 1st Class' } });
    const lines = ((await admin('GET', `/orders/${result.orderNumber}`)).json() as OrderDetail).lines;
    return { result, row, lines, key: links().keyOf(result.orderNumber, 1) };
  }

  it('adds standard delivery when the whole order comes back, and caps the refund at what is left', async () => {
    // One line of £12 × 1 and £25 × 2 is £62: pick a smaller order, with standard delivery £4.95.
    const { result, row, lines, key } = await twoOfOneDispatched('returns-whole', '10.9.251.1');
    // Half back first: no delivery on it.
    const half = await ask(key, { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] });
    const rest = await ask(key, { reason: 'faulty', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] });
    expect([half.statusCode, rest.statusCode]).toEqual([201, 201]);
    const queue = (await admin('GET', '/returns')).json().returns as AdminReturn[];
    const second = queue.find((r) => r.raNumber === rest.json().raNumber)!;
    // With the first, the whole order is back, but the first is still to be refunded: the standard
    // delivery waits for the refund that completes the order (the next test).
    expect(second.refundDue).toMatchObject({ goods: 1500, delivery: 0 });
    // Staff refunded most of the order already: the return's refund is what is left.
    const earlier = await admin('POST', `/orders/${result.orderNumber}/refund`, {
      amount: row.total_including_delivery - 1000,
      reason: 'Goodwill',
    });
    expect(earlier.statusCode, earlier.body).toBe(200);
    await admin('POST', `/returns/${second.id}/authorise`);
    await admin('POST', `/returns/${second.id}/receive`, {
      lines: [{ orderLineId: lines[0]!.id, restock: 0, condition: 'faulty' }],
    });
    const refunded = await admin('POST', `/returns/${second.id}/refund`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().refundAmount).toBe(1000);
    expect((await orderRow(result.orderNumber)).refunded_total).toBe(row.total_including_delivery);
  });

  it('refunds standard delivery once, with the refund that completes the whole order', async () => {
    const { result, lines, key } = await twoOfOneDispatched('returns-delivery-once', '10.9.251.2');
    const asked = [
      await ask(key, { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] }),
      await ask(key, { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] }),
    ];
    const queue = (await admin('GET', '/returns')).json().returns as AdminReturn[];
    const [first, second] = asked.map((answer) => queue.find((r) => r.raNumber === answer.json().raNumber)!);
    const refund = async (id: number) => {
      await admin('POST', `/returns/${id}/authorise`);
      await admin('POST', `/returns/${id}/receive`, {
        lines: [{ orderLineId: lines[0]!.id, restock: 1, condition: 'as_new' }],
      });
      const refunded = await admin('POST', `/returns/${id}/refund`, {});
      expect(refunded.statusCode, refunded.body).toBe(200);
      return refunded.json().refundAmount as number;
    };
    // The first refunded, while the other is still to come, is the goods alone; the last brings
    // the standard delivery back with it: £4.95, not the express £9.95 paid, as the law asks.
    expect(await refund(first!.id)).toBe(1500);
    expect(await refund(second!.id)).toBe(1500 + 495);
    expect((await orderRow(result.orderNumber)).refunded_total).toBe(1500 + 1500 + 495);
  });

  it('gives exactly the whole discount back when an order with a voucher comes back a unit at a time', async () => {
    // £2 off three £10 units: each unit's third of it is 66.67p, which rounded alone thrice is 201p.
    const voucher = await fx.voucher({ kind: 'fixed', amount: 200 });
    const product = await fx.product(1000, 10);
    const { orderNumber, row } = await paidGuestOrder(t, [{ stockId: product.stockId, quantity: 3 }], {
      email: `returns-voucher.${Date.now()}@example.com`,
      remoteAddress: '10.9.251.9',
      provider: 'paypal',
      providerStatus: 'Completed',
      paidAt: new Date(clock.now()).toISOString(),
      extra: { voucherCodeAttempt: voucher },
    });
    const result = { orderNumber };
    expect(row.discount_amount).toBe(200);
    await admin('POST', `/orders/${result.orderNumber}/dispatch`, { untracked: { service: 'Royal Mail 1st Class' } });
    const [line] = ((await admin('GET', `/orders/${result.orderNumber}`)).json() as OrderDetail).lines;
    const key = links().keyOf(result.orderNumber, 1);
    const goodsRefunded: number[] = [];
    // One back in stock, one kept as faulty, one back in stock: each refunded before the next is asked.
    for (const [reason, restock] of [
      ['changed_mind', 1],
      ['faulty', 0],
      ['changed_mind', 1],
    ] as const) {
      const asked = await ask(key, { reason, lines: [{ orderLineId: line!.id, quantity: 1 }] });
      expect(asked.statusCode, asked.body).toBe(201);
      const mine = ((await admin('GET', '/returns')).json().returns as AdminReturn[]).find(
        (r) => r.raNumber === asked.json().raNumber,
      )!;
      await admin('POST', `/returns/${mine.id}/authorise`);
      await admin('POST', `/returns/${mine.id}/receive`, {
        lines: [{ orderLineId: line!.id, restock, condition: restock ? 'as_new' : 'faulty' }],
      });
      const due = ((await admin('GET', `/returns/${mine.id}`)).json() as AdminReturn).refundDue!;
      goodsRefunded.push(due.goods);
      expect((await admin('POST', `/returns/${mine.id}/refund`, {})).statusCode).toBe(200);
    }
    expect(goodsRefunded.reduce((sum, goods) => sum + goods, 0)).toBe(row.items_total - row.discount_amount);
  });

  /** A paid order of one line of `quantity` × £15 with none of it sent yet. */
  async function paidUndispatched(email: string, remoteAddress: string, quantity: number) {
    const product = await fx.product(1500, 10);
    const { orderNumber } = await paidGuestOrder(t, [{ stockId: product.stockId, quantity }], {
      email: `${email}.${Date.now()}@example.com`,
      remoteAddress,
      provider: 'paypal',
      providerStatus: 'Completed',
      paidAt: new Date(clock.now()).toISOString(),
    });
    const result = { orderNumber };
    const lines = ((await admin('GET', `/orders/${result.orderNumber}`)).json() as OrderDetail).lines;
    return { orderNumber: result.orderNumber, lines, key: links().keyOf(result.orderNumber, 1) };
  }
  const dispatchUnits = (orderNumber: number, orderLineId: number, quantity: number) =>
    admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [{ orderLineId, quantity }],
      untracked: { service: 'Royal Mail 1st Class' },
    });

  it('still sends the units not yet sent after a sent unit of their line comes back', async () => {
    const { orderNumber, lines, key } = await paidUndispatched('returns-part-sent', '10.9.251.4', 2);
    const lineId = lines[0]!.id;
    const first = await dispatchUnits(orderNumber, lineId, 1);
    expect(first.statusCode, first.body).toBe(200);
    const received = await receivedReturn(key, 'changed_mind', [{ orderLineId: lineId, quantity: 1, restock: 1 }]);
    const refunded = await admin('POST', `/returns/${received.id}/refund`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    // The unit that came back had been sent: the other is still owed to the shopper.
    const detail = (await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail;
    expect(detail.fulfilment).toBe('partially_dispatched');
    expect(detail.lines[0]).toMatchObject({ restocked: 1, dispatched: 1, toDispatch: 1 });
    const rest = await dispatchUnits(orderNumber, lineId, 1);
    expect(rest.statusCode, rest.body).toBe(200);
    expect((await orderRow(orderNumber)).fulfilment).toBe('dispatched');
  });

  it('lets every sent unit come back when some of the line were cancelled before they were sent', async () => {
    const { orderNumber, lines, key } = await paidUndispatched('returns-after-cancel', '10.9.251.5', 3);
    const lineId = lines[0]!.id;
    // Cancelled before it was sent (this suite's orders are PayPal Standard ones, which the shopper
    // cannot cancel online, so staff cancel it: a refund putting the unit back).
    const cancelled = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1500,
      reason: 'Cancelled before dispatch',
      restock: [{ lineId, quantity: 1 }],
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const sent = await dispatchUnits(orderNumber, lineId, 2);
    expect(sent.statusCode, sent.body).toBe(200);
    // A cancelled unit was never sent, so it takes nothing from the 14-day right on the two sent.
    expect((await returnsOf(key)).lines.find((line) => line.orderLineId === lineId)?.returnable).toBe(2);
    const asked = await ask(key, { reason: 'changed_mind', lines: [{ orderLineId: lineId, quantity: 2 }] });
    expect(asked.statusCode, asked.body).toBe(201);
  });

  it('adds standard delivery when the rest of the order was cancelled before it was sent', async () => {
    const { orderNumber, lines, key } = await paidUndispatched('returns-cancel-then-return', '10.9.251.9', 2);
    const lineId = lines[0]!.id;
    // One unit cancelled before it was sent, the other sent and sent back: the whole order is back.
    const cancelled = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1500,
      reason: 'Cancelled before dispatch',
      restock: [{ lineId, quantity: 1 }],
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await dispatchUnits(orderNumber, lineId, 1)).statusCode).toBe(200);
    const asked = await ask(key, { reason: 'damaged_in_transit', lines: [{ orderLineId: lineId, quantity: 1 }] });
    expect(asked.statusCode, asked.body).toBe(201);
    const item = ((await admin('GET', '/returns')).json().returns as AdminReturn[]).find(
      (r) => r.raNumber === asked.json().raNumber,
    )!;
    expect(item.refundDue.delivery).toBeGreaterThan(0);
  });

  it('counts the units a staff refund puts back as unsent first, and only the rest as returned', async () => {
    const { orderNumber, lines, key } = await paidUndispatched('returns-staff-restock', '10.9.251.6', 3);
    const lineId = lines[0]!.id;
    expect((await dispatchUnits(orderNumber, lineId, 1)).statusCode).toBe(200);
    const returnable = async () => (await returnsOf(key)).lines.find((line) => line.orderLineId === lineId)?.returnable;
    // One of the two unsent units: the sent one may still come back.
    const one = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1500,
      reason: 'Cancelled before dispatch',
      restock: [{ lineId, quantity: 1 }],
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(((await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail).lines[0]).toMatchObject({
      toDispatch: 1,
    });
    expect(await returnable()).toBe(1);
    // Two more: the last unsent one, then the sent one, which came back outside a return.
    const two = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 3000,
      reason: 'Cancelled, and the one sent came back',
      restock: [{ lineId, quantity: 2 }],
    });
    expect(two.statusCode, two.body).toBe(200);
    expect(((await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail).lines[0]).toMatchObject({
      restocked: 3,
      toDispatch: 0,
    });
    expect((await orderRow(orderNumber)).fulfilment).toBe('dispatched');
    expect(await returnable()).toBe(0);
  });

  /** A return asked, authorised and received with the units to restock: its queue entry. */
  async function receivedReturn(
    key: string,
    reason: string,
    lines: Array<{ orderLineId: number; quantity: number; restock: number }>,
  ) {
    const asked = await ask(key, {
      reason,
      lines: lines.map(({ orderLineId, quantity }) => ({ orderLineId, quantity })),
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const queue = (await admin('GET', '/returns')).json().returns as AdminReturn[];
    const mine = queue.find((r) => r.raNumber === asked.json().raNumber)!;
    expect((await admin('POST', `/returns/${mine.id}/authorise`)).statusCode).toBe(200);
    const received = await admin('POST', `/returns/${mine.id}/receive`, {
      lines: lines.map(({ orderLineId, restock }) => ({ orderLineId, restock, condition: 'used' })),
    });
    expect(received.statusCode, received.body).toBe(200);
    return received.json() as AdminReturn;
  }

  it('takes a deduction for diminished value from a change of mind only, and from the goods only', async () => {
    // Regulation 34(9)-(12): the deduction is for handling beyond what was needed to see the goods,
    // so it has no place when they came back faulty, damaged or wrong.
    const { key, lines } = await dispatchedOrder({ daysAgo: 2, delivered: true });
    for (const [reason, line] of [
      ['faulty', lines[0]!],
      ['wrong_item', lines[1]!],
    ] as const) {
      const received = await receivedReturn(key, reason, [{ orderLineId: line.id, quantity: 1, restock: 0 }]);
      const refused = await admin('POST', `/returns/${received.id}/refund`, {
        deduction: 100,
        deductionReason: 'Worn',
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields).toEqual([expect.objectContaining({ field: 'deduction' })]);
    }

    // A change of mind on the whole order: £30 of goods and £4.95 standard delivery; the deduction
    // may take the goods' £30 at most, never the delivery.
    const whole = await twoOfOneDispatched('returns-deduction', '10.9.251.3');
    const received = await receivedReturn(whole.key, 'changed_mind', [
      { orderLineId: whole.lines[0]!.id, quantity: 2, restock: 2 },
    ]);
    expect(received.refundDue).toMatchObject({ goods: 3000, delivery: 495 });
    const intoDelivery = await admin('POST', `/returns/${received.id}/refund`, {
      deduction: 3001,
      deductionReason: 'Worn',
    });
    expect(intoDelivery.statusCode, intoDelivery.body).toBe(400);
    expect(intoDelivery.json().error.fields).toEqual([expect.objectContaining({ field: 'deduction' })]);
    const refunded = await admin('POST', `/returns/${received.id}/refund`, {
      deduction: 3000,
      deductionReason: 'Worn',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ refundAmount: 495, deduction: 3000 });
  });

  it('puts the chosen units back in stock when the deduction takes the whole refund', async () => {
    const { key, lines, orderNumber } = await dispatchedOrder({ daysAgo: 2, delivered: true });
    const stockId = (
      await t.db.kysely
        .selectFrom('order_lines')
        .select('product_stock_id')
        .where('id', '=', lines[0]!.id)
        .executeTakeFirstOrThrow()
    ).product_stock_id;
    const before = await fx.stockOf(stockId);
    // £62 of goods, standard delivery free: nothing is left to refund after a £62 deduction.
    const received = await receivedReturn(key, 'changed_mind', [
      { orderLineId: lines[0]!.id, quantity: 2, restock: 2 },
      { orderLineId: lines[1]!.id, quantity: 1, restock: 0 },
    ]);
    expect(received.refundDue).toMatchObject({ goods: 6200, delivery: 0 });
    const refunded = await admin('POST', `/returns/${received.id}/refund`, {
      deduction: 6200,
      deductionReason: 'Worn and washed',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'refunded', refundAmount: 0 });
    expect(await fx.stockOf(stockId)).toBe(before + 2);
    // Recorded as put back, as a refund's units are, so no later refund can put them back again.
    const detail = (await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail;
    expect(detail.lines.map((line) => line.restocked)).toEqual([2, 0]);
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
  });

  it('takes a collection order back once it is collected, within 14 days of collection', async () => {
    await fx.collectionMethod(900_500, 'Collect from the shop');
    const product = await fx.product(1500, 10);
    const { orderNumber, row } = await paidGuestOrder(t, [{ stockId: product.stockId, quantity: 2 }], {
      email: `returns-collect.${Date.now()}@example.com`,
      remoteAddress: '10.9.251.4',
      provider: 'paypal',
      providerStatus: 'Completed',
      paidAt: new Date(clock.now()).toISOString(),
      extra: { deliveryMethodRateId: 900_500 },
    });
    const result = { orderNumber };
    const key = links().keyOf(result.orderNumber, 1);
    const lines = ((await admin('GET', `/orders/${result.orderNumber}`)).json() as OrderDetail).lines;
    const one = { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] };

    // Waiting at the shop, it has not reached the shopper: refused as before.
    const ready = await admin('POST', `/orders/${result.orderNumber}/ready-for-collection`);
    expect(ready.statusCode, ready.body).toBe(200);
    expect((await returnsOf(key)).lines.map((line) => line.returnable)).toEqual([0]);
    const early = await ask(key, one);
    expect(early.statusCode).toBe(400);
    expect(early.json().error.fields).toEqual([expect.objectContaining({ field: 'lines.0.quantity' })]);

    // Collected: received by the shopper that day, so the 14 days run from it.
    const collected = await admin('POST', `/orders/${result.orderNumber}/collect`);
    expect(collected.statusCode, collected.body).toBe(200);
    // The moves keep the wall clock: the collection is put on this test's clock, 3 days ago.
    const collectedAt = (daysAgo: number) =>
      t.db.kysely
        .updateTable('orders')
        .set({ delivered_at: new Date(clock.now() - daysAgo * DAY).toISOString() })
        .where('id', '=', row.id)
        .execute();
    await collectedAt(3);
    const page = await t.app.inject({ method: 'GET', url: `/api/order-page/${key}` });
    expect(page.json().fulfilment.status).toBe('collected');
    const view = await returnsOf(key);
    expect(view.lines.map((line) => line.returnable)).toEqual([2]);
    expect(view.lines[0]!.windowEndsAt).toBe('2026-06-12T23:59:59.999Z');
    const asked = await ask(key, one);
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ raNumber: `RA-${result.orderNumber}-1`, status: 'requested' });

    // Collected 15 days ago: its window has closed.
    await collectedAt(15);
    expect((await returnsOf(key)).lines.map((line) => line.returnable)).toEqual([0]);
  });

  it('receives a return once when two staff receive it at the same moment', async () => {
    const { key, lines } = await dispatchedOrder({ daysAgo: 1, delivered: true });
    const asked = await ask(key, { reason: 'wrong_item', lines: [{ orderLineId: lines[1]!.id, quantity: 1 }] });
    const queue = (await admin('GET', '/returns')).json().returns as AdminReturn[];
    const mine = queue.find((r) => r.raNumber === asked.json().raNumber)!;
    await admin('POST', `/returns/${mine.id}/authorise`);
    const body = { lines: [{ orderLineId: lines[1]!.id, restock: 1, condition: 'as_new' }] };
    const answers = await Promise.all([
      admin('POST', `/returns/${mine.id}/receive`, body),
      admin('POST', `/returns/${mine.id}/receive`, body),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('entity_type', '=', 'return')
      .where('entity_id', '=', mine.raNumber)
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(['return.request', 'return.authorise', 'return.receive']);
  });

  it('answers the same 404 for a key that is wrong, revoked or guessed', async () => {
    const { key, orderNumber, order } = await dispatchedOrder({ daysAgo: 1, delivered: true });
    await t.db.kysely.updateTable('orders').set({ link_version: 2 }).where('id', '=', order.id).execute();
    const bad = [
      key,
      links().keyOf(orderNumber + 1000, 1),
      `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
      `${orderNumber}.${'A'.repeat(43)}`,
      'nonsense',
    ];
    const answers = [];
    for (const guess of bad) {
      const get = await t.app.inject({ method: 'GET', url: `/api/order-page/${guess}/returns` });
      const post = await ask(guess, { reason: 'faulty', lines: [{ orderLineId: 1, quantity: 1 }] });
      answers.push([get.statusCode, get.body], [post.statusCode, post.body]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]![0]).toBe(404);
    expect((await returnsOf(links().keyOf(orderNumber, 2))).orderNumber).toBe(orderNumber);
  });
});
