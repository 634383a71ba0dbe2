import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import type { OrderDetail } from '../../contract/admin/orders.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import { backfillFulfilments } from '../db/migrations/0030-fulfilments.ts';
import { markOrderPaid } from './order-lifecycle.ts';
import { packingSlipsOf } from './order-documents.ts';

/**
 * Flexible dispatch (docs/back-office.md#orders): a fulfilment sends chosen units of an order's
 * lines in tracked parcels or untracked; part now and the rest later, an e-mail for each, never
 * more than a line has, even with two staff at once.
 */
describe('dispatching an order in parts', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let staffEmail: string;
  let orderCount = 0;
  const COLLECTION = 900_200;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
    ({ cookie, email: staffEmail } = await staffMember(t, 'staff'));
    await fx.collectionMethod(COLLECTION, 'Collect from the shop');
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const orderRow = (orderNumber: number) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
  const detailOf = async (orderNumber: number) => (await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail;
  const mailsTo = async (email: string) =>
    (await deliveredMail(t)).filter((m) => m.to === email && m.subject.includes('on its way'));

  /** A paid order of three lines: 2, 1 and 3 units. */
  async function paidOrder(extra: object = {}) {
    const products = [await fx.product(2500, 10), await fx.product(1200, 10), await fx.product(800, 10)];
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody(
        products.map((p, i) => ({ productStockId: p.stockId, requestedQty: [2, 1, 3][i]! })),
        { guest: { ...guest, email: `parts${++orderCount}.${Date.now()}@example.com` }, ...extra },
      ),
      remoteAddress: `10.7.${orderCount % 250}.${(orderCount * 7) % 250}`,
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error(`expected an order: ${committed.body}`);
    const order = await orderRow(result.orderNumber);
    await t.db.kysely
      .transaction()
      .execute((trx) =>
        markOrderPaid(
          trx,
          order,
          { provider: 'paypal', providerStatus: 'Completed', transactionId: `TX${result.orderNumber}` },
          new Date().toISOString(),
        ),
      );
    const detail = await detailOf(result.orderNumber);
    return { orderNumber: result.orderNumber, email: order.email, lines: detail.lines };
  }

  const waitingNumbers = async () =>
    (await admin('GET', '/orders?waiting=dispatch&pageSize=100'))
      .json()
      .orders.map((o: { orderNumber: number }) => o.orderNumber);

  it('sends part untracked now and the rest later in two tracked parcels, an e-mail for each', async () => {
    const { orderNumber, email, lines } = await paidOrder();
    const [a, b, c] = lines as [
      OrderDetail['lines'][number],
      OrderDetail['lines'][number],
      OrderDetail['lines'][number],
    ];

    const part = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [
        { orderLineId: a.id, quantity: 2 },
        { orderLineId: c.id, quantity: 1 },
      ],
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(part.statusCode, part.body).toBe(200);
    const afterPart = part.json() as OrderDetail;
    expect(afterPart.fulfilment).toBe('partially_dispatched');
    expect(afterPart.actions).toContain('dispatch');
    expect(afterPart.lines.map((line) => [line.dispatched, line.toDispatch])).toEqual([
      [2, 0],
      [0, 1],
      [1, 2],
    ]);
    expect(afterPart.fulfilments).toEqual([
      expect.objectContaining({
        method: 'untracked',
        service: 'Royal Mail 1st Class',
        staffEmail,
        parcels: [],
        lines: [
          expect.objectContaining({ orderLineId: a.id, quantity: 2 }),
          expect.objectContaining({ orderLineId: c.id, quantity: 1 }),
        ],
      }),
    ]);
    expect(afterPart.timeline.map((entry) => entry.text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Part dispatched untracked by Royal Mail 1st Class by /)]),
    );
    const first = await mailsTo(email);
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toBe(`Part of your order ${orderNumber} is on its way`);
    const firstText = decodeQuotedPrintable(first[0]!.raw);
    expect(firstText).toContain('sent by Royal Mail 1st Class, untracked');
    expect(firstText).toContain(`2 x ${a.title}`);
    expect(firstText).toContain('Still to come');
    expect(firstText).toContain(`1 x ${b.title}`);
    expect(firstText).toContain(`2 x ${c.title}`);

    // Still to pack: in the packer's list, its slip showing only what remains.
    expect(await waitingNumbers()).toContain(orderNumber);
    const [slip] = await packingSlipsOf(t.db.kysely, { orderNumber });
    expect(slip!.lines.map((line) => [line.title, line.quantity])).toEqual([
      [b.title, 1],
      [c.title, 2],
    ]);
    const batch = await packingSlipsOf(t.db.kysely, 'waiting to dispatch');
    expect(batch.find((one) => one.orderNumber === orderNumber)?.lines).toHaveLength(2);

    // The rest, by default everything still to send, in two parcels.
    const rest = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      parcels: [
        { carrier: 'Royal Mail', trackingNumber: 'AB111111111GB' },
        { carrier: 'DPD', trackingNumber: '15501234567890' },
      ],
    });
    expect(rest.statusCode, rest.body).toBe(200);
    const done = rest.json() as OrderDetail;
    expect(done.fulfilment).toBe('dispatched');
    expect(done.actions).not.toContain('dispatch');
    expect(done.lines.map((line) => line.toDispatch)).toEqual([0, 0, 0]);
    expect(done.fulfilments).toHaveLength(2);
    expect(done.fulfilments[1]).toMatchObject({
      method: 'tracked',
      service: null,
      lines: [
        { orderLineId: b.id, quantity: 1 },
        { orderLineId: c.id, quantity: 2 },
      ],
      parcels: [
        {
          carrier: 'Royal Mail',
          trackingNumber: 'AB111111111GB',
          trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB111111111GB',
        },
        { carrier: 'DPD', trackingNumber: '15501234567890', trackingUrl: expect.stringContaining('15501234567890') },
      ],
    });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    const second = mails.find((m) => m.subject === `Your order ${orderNumber} is on its way`)!;
    const secondText = decodeQuotedPrintable(second.raw);
    expect(secondText).toContain('https://www.royalmail.com/track-your-item#/tracking-results/AB111111111GB');
    expect(secondText).toContain('15501234567890');
    expect(secondText).not.toContain('Still to come');
    expect(await waitingNumbers()).not.toContain(orderNumber);

    // Nothing left: a further dispatch is refused, and changes nothing.
    const again = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 2nd Class' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('keeps the old body working: one tracked parcel of everything', async () => {
    const { orderNumber } = await paidOrder();
    const answer = await admin('POST', `/orders/${orderNumber}/dispatch`, { carrier: 'Evri', trackingNumber: 'H01' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      fulfilment: 'dispatched',
      carrier: 'Evri',
      trackingNumber: 'H01',
      fulfilments: [{ method: 'tracked', parcels: [{ carrier: 'Evri', trackingNumber: 'H01' }] }],
    });
    expect((answer.json() as OrderDetail).fulfilments[0]!.lines.map((line) => line.quantity)).toEqual([2, 1, 3]);
  });

  it('refuses more than a line has left (naming it), an empty fulfilment, a line of another order and a collection order', async () => {
    const { orderNumber, lines } = await paidOrder();
    const other = await paidOrder();
    const before = await orderRow(orderNumber);
    const tooMany = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [
        { orderLineId: lines[1]!.id, quantity: 1 },
        { orderLineId: lines[0]!.id, quantity: 3 },
      ],
      untracked: { service: 'Royal Mail 2nd Class' },
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.message).toBe(
      `Only 2 of ${lines[0]!.title} (${lines[0]!.sizeName}) are left to dispatch.`,
    );
    expect(tooMany.json().error.fields).toEqual([expect.objectContaining({ field: 'lines.1.quantity' })]);

    const empty = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [{ orderLineId: lines[0]!.id, quantity: 0 }],
      untracked: { service: 'Royal Mail 2nd Class' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual([expect.objectContaining({ field: 'lines' })]);

    const notOurs = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [{ orderLineId: other.lines[0]!.id, quantity: 1 }],
      untracked: { service: 'Royal Mail 2nd Class' },
    });
    expect(notOurs.statusCode).toBe(400);
    expect(notOurs.json().error.fields).toEqual([expect.objectContaining({ field: 'lines.0.orderLineId' })]);

    for (const [body, field] of [
      [{}, 'parcels'],
      [{ parcels: [] }, 'parcels'],
      [{ untracked: { service: 'Pigeon' } }, 'untracked.service'],
      [
        { parcels: [{ carrier: 'DPD', trackingNumber: 'X' }], untracked: { service: 'Royal Mail 1st Class' } },
        'untracked',
      ],
      [{ carrier: 'DPD' }, 'trackingNumber'],
      // The carrier is printed in the customer's e-mail as part of one line.
      [{ parcels: [{ carrier: 'DPD\r\nBcc: x@evil.example', trackingNumber: 'X' }] }, 'parcels.0.carrier'],
    ] as const) {
      const bad = await admin('POST', `/orders/${orderNumber}/dispatch`, body);
      expect({ body, status: bad.statusCode }).toEqual({ body, status: 400 });
      expect(bad.json().error.fields).toEqual([expect.objectContaining({ field })]);
    }
    // Nothing refused changed anything.
    expect(await orderRow(orderNumber)).toEqual(before);
    expect((await detailOf(orderNumber)).fulfilments).toEqual([]);

    const collection = await paidOrder({ deliveryMethodRateId: COLLECTION });
    const notSent = await admin('POST', `/orders/${collection.orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(notSent.statusCode).toBe(409);
    expect(notSent.json().error.message).toMatch(/collected from the shop/);
  });

  it('makes a partially dispatched order dispatched when a refund puts back the last units to send', async () => {
    const { orderNumber, lines } = await paidOrder();
    const part = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [
        { orderLineId: lines[0]!.id, quantity: 2 },
        { orderLineId: lines[2]!.id, quantity: 3 },
      ],
      parcels: [{ carrier: 'DPD', trackingNumber: 'P1' }],
    });
    expect(part.json().fulfilment).toBe('partially_dispatched');
    const refund = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1200,
      reason: 'Out of stock after all',
      restock: [{ lineId: lines[1]!.id, quantity: 1 }],
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ fulfilment: 'dispatched' });
    expect((refund.json() as OrderDetail).lines.map((line) => line.toDispatch)).toEqual([0, 0, 0]);
    expect(await waitingNumbers()).not.toContain(orderNumber);
  });

  it('gives an order dispatched before fulfilments existed one fulfilment of what it sent (migration 0030)', async () => {
    const { orderNumber, lines } = await paidOrder();
    const refund = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 800,
      reason: 'One short',
      restock: [{ lineId: lines[2]!.id, quantity: 1 }],
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(
      (await admin('POST', `/orders/${orderNumber}/dispatch`, { carrier: 'DPD', trackingNumber: 'OLD1' })).statusCode,
    ).toBe(200);
    // As it was before migration 0030: the order dispatched, its carrier kept on it, no fulfilment.
    const { id } = await orderRow(orderNumber);
    const k = t.db.kysely;
    const ids = (await k.selectFrom('fulfilments').select('id').where('order_id', '=', id).execute()).map((f) => f.id);
    await k.deleteFrom('fulfilment_lines').where('fulfilment_id', 'in', ids).execute();
    await k.deleteFrom('fulfilment_parcels').where('fulfilment_id', 'in', ids).execute();
    await k.deleteFrom('fulfilments').where('id', 'in', ids).execute();
    await k.updateTable('order_lines').set({ dispatched: 0 }).where('order_id', '=', id).execute();
    const othersBefore = await k.selectFrom('fulfilments').select('id').execute();

    await backfillFulfilments(k);
    const detail = await detailOf(orderNumber);
    expect(detail.fulfilments).toEqual([
      expect.objectContaining({
        method: 'tracked',
        staffEmail: null,
        parcels: [expect.objectContaining({ carrier: 'DPD', trackingNumber: 'OLD1' })],
        lines: [
          expect.objectContaining({ orderLineId: lines[0]!.id, quantity: 2 }),
          expect.objectContaining({ orderLineId: lines[1]!.id, quantity: 1 }),
          expect.objectContaining({ orderLineId: lines[2]!.id, quantity: 2 }),
        ],
      }),
    ]);
    expect(detail.lines.map((line) => line.toDispatch)).toEqual([0, 0, 0]);
    // Orders that had fulfilments are left as they were.
    expect(await k.selectFrom('fulfilments').select('id').execute()).toHaveLength(othersBefore.length + 1);
  });

  // Two instances share PostgreSQL; two in one process on SQLite would wait for each other's lock.
  if (testDialect === 'postgres') {
    it('never sends more of a line than it has when two staff on two instances dispatch it at once', async () => {
      const second = await createSecondInstance(t);
      try {
        for (let round = 0; round < 4; round++) {
          const { orderNumber, email, lines } = await paidOrder();
          const answers = await Promise.all(
            [t.app, second.app].map((app, i) =>
              app.inject({
                method: 'POST',
                url: `/api/admin/orders/${orderNumber}/dispatch`,
                headers: { cookie },
                payload: {
                  lines: [{ orderLineId: lines[2]!.id, quantity: 2 }],
                  parcels: [{ carrier: 'DPD', trackingNumber: `R${round}I${i}` }],
                },
              }),
            ),
          );
          expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
          const detail = await detailOf(orderNumber);
          expect(detail.lines[2]).toMatchObject({ dispatched: 2, toDispatch: 1 });
          expect(detail.fulfilments).toHaveLength(1);
          expect(await mailsTo(email)).toHaveLength(1);
        }
      } finally {
        await second.close();
      }
    });
  }
});
