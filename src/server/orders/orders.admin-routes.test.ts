import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderListSchema } from '../../contract/admin/orders.ts';
import { commitResponseSchema, pricedBasketSchema } from '../../contract/basket.ts';
import { MAX_ORDER_TOTAL } from '../../contract/basket-rules.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import { expireOrder, markOrderPaid, markPaymentFailed } from './order-lifecycle.ts';
import { packingSlipsOf } from './order-documents.ts';
import { createOrdersAdminService } from './orders.admin-service.ts';

/**
 * Orders in the back office (docs/back-office.md#orders): every move staff may make from every
 * state, what each move does to stock, vouchers and the customer's mail, two staff at once, and
 * finding orders by what a customer says on the phone.
 */
describe('back office orders', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let staffEmail: string;
  let orderCount = 0;
  /** A delivery method of the kind collection, for click-and-collect orders. */
  const COLLECTION = 900_100;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
    ({ cookie, email: staffEmail } = await staffMember(t, 'staff'));
    await fx.collectionMethod(COLLECTION, 'Collect from the Leicester shop');
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const orderRow = (orderNumber: number) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();

  /** An order as a shopper places it: two units of a £25 product, with express delivery. */
  async function placeOrder(extra: object = {}, quantity = 2) {
    const p = await fx.product(2500, 10);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: quantity }], {
        guest: { ...guest, email: `buyer${++orderCount}.${Date.now()}@example.com` },
        ...extra,
      }),
      remoteAddress: `10.3.${orderCount % 250}.${(orderCount * 3) % 250}`,
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error(`expected an order: ${committed.body}`);
    return { ...result, stockId: p.stockId };
  }

  /** An order for `quantity` units of a given stock entry. */
  async function placeOrderOf(stockId: number, quantity: number) {
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: stockId, requestedQty: quantity }], {
        guest: { ...guest, email: `buyer${++orderCount}.${Date.now()}@example.com` },
      }),
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error(`expected an order: ${committed.body}`);
    return result;
  }

  async function pay(orderNumber: number) {
    const order = await orderRow(orderNumber);
    await t.db.kysely
      .transaction()
      .execute((trx) =>
        markOrderPaid(
          trx,
          order,
          { provider: 'paypal', providerStatus: 'Completed', transactionId: `TX${orderNumber}` },
          new Date().toISOString(),
        ),
      );
  }

  /** An order in each state staff can find one in. */
  const states = {
    'awaiting payment': async () => (await placeOrder()).orderNumber,
    'payment failed': async () => {
      const { orderNumber } = await placeOrder();
      const order = await orderRow(orderNumber);
      await t.db.kysely
        .transaction()
        .execute((trx) =>
          markPaymentFailed(
            trx,
            order.id,
            { provider: 'opayo', providerStatus: 'NOTAUTHED' },
            new Date().toISOString(),
          ),
        );
      return orderNumber;
    },
    expired: async () => {
      const { orderNumber } = await placeOrder();
      const order = await orderRow(orderNumber);
      await t.db.kysely.transaction().execute((trx) => expireOrder(trx, order.id, new Date().toISOString()));
      return orderNumber;
    },
    cancelled: async () => {
      const { orderNumber } = await placeOrder();
      expect((await admin('POST', `/orders/${orderNumber}/cancel`, {})).statusCode).toBe(200);
      return orderNumber;
    },
    paid: async () => {
      const { orderNumber } = await placeOrder();
      await pay(orderNumber);
      return orderNumber;
    },
    dispatched: async () => {
      const orderNumber = await states.paid();
      expect(
        (await admin('POST', `/orders/${orderNumber}/dispatch`, { carrier: 'DPD', trackingNumber: 'X1' })).statusCode,
      ).toBe(200);
      return orderNumber;
    },
    'partially dispatched': async () => {
      const orderNumber = await states.paid();
      const [line] = (await admin('GET', `/orders/${orderNumber}`)).json().lines;
      const part = await admin('POST', `/orders/${orderNumber}/dispatch`, {
        lines: [{ orderLineId: line.id, quantity: 1 }],
        untracked: { service: 'Royal Mail 2nd Class' },
      });
      expect(part.statusCode, part.body).toBe(200);
      return orderNumber;
    },
    'partially dispatched, then fully refunded': async () => refundInFull(await states['partially dispatched']()),
    delivered: async () => {
      const orderNumber = await states.dispatched();
      expect((await admin('POST', `/orders/${orderNumber}/deliver`, {})).statusCode).toBe(200);
      return orderNumber;
    },
    'fully refunded': async () => refundInFull(await states.paid()),
    'partially refunded': async () => {
      const orderNumber = await states.paid();
      expect((await admin('POST', `/orders/${orderNumber}/refund`, { amount: 500, reason: 'Dented' })).statusCode).toBe(
        200,
      );
      return orderNumber;
    },
    'dispatched, then fully refunded': async () => refundInFull(await states.dispatched()),
    'collection, awaiting payment': async () => (await placeOrder({ deliveryMethodRateId: COLLECTION })).orderNumber,
    'collection, paid': async () => {
      const { orderNumber } = await placeOrder({ deliveryMethodRateId: COLLECTION });
      await pay(orderNumber);
      return orderNumber;
    },
    'ready for collection': async () => {
      const orderNumber = await states['collection, paid']();
      expect((await admin('POST', `/orders/${orderNumber}/ready-for-collection`, {})).statusCode).toBe(200);
      return orderNumber;
    },
    collected: async () => {
      const orderNumber = await states['ready for collection']();
      expect((await admin('POST', `/orders/${orderNumber}/collect`, {})).statusCode).toBe(200);
      return orderNumber;
    },
    'collection, fully refunded': async () => refundInFull(await states['collection, paid']()),
    'ready for collection, then fully refunded': async () => refundInFull(await states['ready for collection']()),
  };
  async function refundInFull(orderNumber: number) {
    const { total_including_delivery: total, refunded_total: refunded } = await orderRow(orderNumber);
    const answer = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: total - refunded,
      reason: 'Returned',
    });
    expect(answer.statusCode).toBe(200);
    return orderNumber;
  }
  const actions = {
    dispatch: { carrier: 'Royal Mail', trackingNumber: 'AB123456789GB' },
    deliver: {},
    'ready-for-collection': {},
    collect: {},
    cancel: { reason: 'Customer asked' },
    refund: { amount: 100, reason: 'Goodwill' },
  };
  /** Which moves each state allows; every other pair must be refused. */
  const allowed: Record<
    keyof typeof states,
    Array<keyof typeof actions | 'change-delivery-details' | 'resend-confirmation'>
  > = {
    'awaiting payment': ['cancel', 'change-delivery-details'],
    'payment failed': ['cancel', 'change-delivery-details'],
    expired: [],
    cancelled: [],
    paid: ['dispatch', 'refund', 'change-delivery-details', 'resend-confirmation'],
    dispatched: ['deliver', 'refund', 'resend-confirmation'],
    // The rest may still be sent, and where it goes may still change.
    'partially dispatched': ['dispatch', 'refund', 'change-delivery-details', 'resend-confirmation'],
    // Its money has gone back: the rest is not sent, and only a whole order is delivered.
    'partially dispatched, then fully refunded': [],
    delivered: ['refund', 'resend-confirmation'],
    // Nothing is left to send or to give back.
    'fully refunded': [],
    'partially refunded': ['dispatch', 'refund', 'change-delivery-details', 'resend-confirmation'],
    // Already on its way: the carrier's delivery is still recorded.
    'dispatched, then fully refunded': ['deliver'],
    'collection, awaiting payment': ['cancel', 'change-delivery-details'],
    // A collection order is made ready and collected, never dispatched or delivered.
    'collection, paid': ['ready-for-collection', 'refund', 'change-delivery-details', 'resend-confirmation'],
    'ready for collection': ['collect', 'refund', 'resend-confirmation'],
    collected: ['refund', 'resend-confirmation'],
    'collection, fully refunded': [],
    // Its money has gone back: it is not handed over.
    'ready for collection, then fully refunded': [],
  };
  /** Each state's payment and fulfilment as the back office shows them. */
  const reads: Record<keyof typeof states, { payment: string; fulfilment: string }> = {
    'awaiting payment': { payment: 'awaiting_payment', fulfilment: 'unfulfilled' },
    'payment failed': { payment: 'failed', fulfilment: 'unfulfilled' },
    expired: { payment: 'cancelled', fulfilment: 'unfulfilled' },
    cancelled: { payment: 'cancelled', fulfilment: 'unfulfilled' },
    paid: { payment: 'paid', fulfilment: 'unfulfilled' },
    dispatched: { payment: 'paid', fulfilment: 'dispatched' },
    'partially dispatched': { payment: 'paid', fulfilment: 'partially_dispatched' },
    'partially dispatched, then fully refunded': { payment: 'refunded', fulfilment: 'partially_dispatched' },
    delivered: { payment: 'paid', fulfilment: 'delivered' },
    'fully refunded': { payment: 'refunded', fulfilment: 'unfulfilled' },
    'partially refunded': { payment: 'partially_refunded', fulfilment: 'unfulfilled' },
    'dispatched, then fully refunded': { payment: 'refunded', fulfilment: 'dispatched' },
    'collection, awaiting payment': { payment: 'awaiting_payment', fulfilment: 'unfulfilled' },
    'collection, paid': { payment: 'paid', fulfilment: 'unfulfilled' },
    'ready for collection': { payment: 'paid', fulfilment: 'ready_for_collection' },
    collected: { payment: 'paid', fulfilment: 'collected' },
    'collection, fully refunded': { payment: 'refunded', fulfilment: 'unfulfilled' },
    'ready for collection, then fully refunded': { payment: 'refunded', fulfilment: 'ready_for_collection' },
  };
  /** The states in the packer's list: the "to dispatch" filter, the dashboard and the packing slips. */
  const waitingToDispatch: Array<keyof typeof states> = [
    'paid',
    'partially dispatched',
    'partially refunded',
    'collection, paid',
  ];

  it.each(Object.keys(states) as Array<keyof typeof states>)(
    'allows from "%s" exactly the moves the lifecycle names',
    async (state) => {
      for (const action of Object.keys(actions) as Array<keyof typeof actions>) {
        const orderNumber = await states[state]();
        const before = await orderRow(orderNumber);
        const answer = await admin('POST', `/orders/${orderNumber}/${action}`, actions[action]);
        const legal = (allowed[state] as string[]).includes(action);
        expect({ state, action, status: answer.statusCode }).toEqual({ state, action, status: legal ? 200 : 409 });
        if (legal) {
          expect(answer.json().actions).toEqual(expect.any(Array));
        } else {
          expect(answer.json().error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/\w/) });
          // A refused move changes nothing.
          expect(await orderRow(orderNumber)).toEqual(before);
        }
      }
    },
  );

  it('reads each state’s payment and fulfilment as people do, in the list, the page and the CSV', async () => {
    for (const state of Object.keys(states) as Array<keyof typeof states>) {
      const orderNumber = await states[state]();
      const page = (await admin('GET', `/orders/${orderNumber}`)).json();
      expect({ state, payment: page.payment, fulfilment: page.fulfilment }).toEqual({ state, ...reads[state] });
      const listed = (await admin('GET', `/orders?q=${orderNumber}&payment=${reads[state].payment}`)).json();
      expect({ state, found: listed.orders.map((o: { payment: string }) => o.payment) }).toEqual({
        state,
        found: [reads[state].payment],
      });
      const row = (await admin('GET', `/orders.csv?q=${orderNumber}`)).body.split('\r\n')[1]!;
      const label = (text: string) => text[0]!.toUpperCase() + text.slice(1).replace(/_/g, ' ');
      expect({ state, row }).toEqual({
        state,
        row: expect.stringContaining(`,${label(reads[state].payment)},${label(reads[state].fulfilment)},`),
      });
    }
  });

  it('keeps out of "to dispatch" every order refunded in full: the list, the dashboard and the packing slips', async () => {
    const inState = new Map<number, keyof typeof states>();
    for (const state of Object.keys(states) as Array<keyof typeof states>) inState.set(await states[state](), state);
    const mine = (numbers: number[]) =>
      numbers
        .filter((n) => inState.has(n))
        .map((n) => inState.get(n))
        .sort();
    const listed = (await admin('GET', '/orders?waiting=dispatch&pageSize=100')).json();
    expect(mine(listed.orders.map((o: { orderNumber: number }) => o.orderNumber))).toEqual(
      [...waitingToDispatch].sort(),
    );
    const dashboard = (await admin('GET', '/dashboard')).json();
    expect(dashboard.awaitingDispatch.count).toBe(listed.total);
    const slips = await packingSlipsOf(t.db.kysely, 'waiting to dispatch');
    expect(mine(slips.map((slip) => slip.orderNumber))).toEqual([...waitingToDispatch].sort());
    expect(slips).toHaveLength(listed.total);
  });

  it('tells the customer their collection order is ready, and refuses to make a delivery order ready', async () => {
    const orderNumber = await states['collection, paid']();
    const ready = await admin('POST', `/orders/${orderNumber}/ready-for-collection`, {});
    expect(ready.json()).toMatchObject({ deliveryKind: 'collection', fulfilment: 'ready_for_collection' });
    expect(ready.json().timeline.map((entry: { text: string }) => entry.text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Made ready for collection by /)]),
    );
    const order = await orderRow(orderNumber);
    const mail = (await deliveredMail(t)).filter((m) => m.to === order.email && m.subject.includes('ready to collect'));
    expect(mail).toHaveLength(1);
    expect(decodeQuotedPrintable(mail[0]!.raw)).toContain('Collect from the Leicester shop');

    const delivery = await states.paid();
    const refused = await admin('POST', `/orders/${delivery}/ready-for-collection`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/sent to the customer/);
    const notSent = await admin('POST', `/orders/${orderNumber}/dispatch`, actions.dispatch);
    expect(notSent.json().error.message).toMatch(/collected from the shop/);
  });

  it('offers on an order page exactly the moves it allows', async () => {
    for (const state of Object.keys(states) as Array<keyof typeof states>) {
      const orderNumber = await states[state]();
      expect({ state, actions: [...(await admin('GET', `/orders/${orderNumber}`)).json().actions].sort() }).toEqual({
        state,
        actions: [...allowed[state]].sort(),
      });
    }
  });

  it('dispatches with a tracking number, mails the customer a tracking link, and shows it on the timeline', async () => {
    const orderNumber = await states.paid();
    const answer = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      carrier: 'Royal Mail',
      trackingNumber: 'AB 123 456 789 GB',
    });
    expect(answer.statusCode).toBe(200);
    const detail = answer.json();
    expect(detail).toMatchObject({
      fulfilment: 'dispatched',
      carrier: 'Royal Mail',
      trackingNumber: 'AB 123 456 789 GB',
      trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    });
    expect(detail.timeline.map((entry: { text: string }) => entry.text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Dispatched with Royal Mail \(AB 123 456 789 GB\) by /)]),
    );
    expect(detail.audit).toEqual([
      expect.objectContaining({
        action: 'order.dispatch',
        staffEmail,
        before: expect.objectContaining({ fulfilment: 'unfulfilled' }),
        after: expect.objectContaining({ fulfilment: 'dispatched', trackingNumber: 'AB 123 456 789 GB' }),
      }),
    ]);
    const order = await orderRow(orderNumber);
    const mail = (await deliveredMail(t)).filter((m) => m.to === order.email && m.subject.includes('on its way'));
    expect(mail).toHaveLength(1);
    expect(decodeQuotedPrintable(mail[0]!.raw)).toContain(
      'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    );
  });

  it('cancels an unpaid order, giving back its stock and its voucher use', async () => {
    const code = await fx.voucher({ usageLimit: 5 });
    const { orderNumber, stockId } = await placeOrder({ appliedVouchers: [{ code }] }, 3);
    const usedBefore = await t.db.kysely
      .selectFrom('vouchers')
      .select('times_used')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(usedBefore.times_used).toBe(1);
    expect(await fx.stockOf(stockId)).toBe(7);
    expect((await admin('POST', `/orders/${orderNumber}/cancel`, { reason: 'Duplicate order' })).json()).toMatchObject({
      status: 'cancelled',
    });
    expect(await fx.stockOf(stockId)).toBe(10);
    const usedAfter = await t.db.kysely
      .selectFrom('vouchers')
      .select('times_used')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(usedAfter.times_used).toBe(0);
  });

  it('records partial refunds up to what was paid, restocking chosen units once', async () => {
    const { orderNumber, stockId } = await placeOrder({}, 3);
    await pay(orderNumber);
    expect(await fx.stockOf(stockId)).toBe(7);
    const order = await orderRow(orderNumber);
    const lineId = (await admin('GET', `/orders/${orderNumber}`)).json().lines[0].id;

    const first = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 2500,
      reason: 'One came back',
      restock: [{ lineId, quantity: 1 }],
    });
    expect(first.json()).toMatchObject({ refundedTotal: 2500, lines: [expect.objectContaining({ restocked: 1 })] });
    expect(await fx.stockOf(stockId)).toBe(8);

    const tooMuch = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: order.total_including_delivery - 2500 + 1,
      reason: 'Too much',
    });
    expect(tooMuch.statusCode).toBe(409);
    const tooMany = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1,
      reason: 'x',
      restock: [{ lineId, quantity: 3 }],
    });
    expect(tooMany.statusCode).toBe(409);
    const otherLine = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1,
      reason: 'x',
      restock: [{ lineId: lineId + 100_000, quantity: 1 }],
    });
    expect(otherLine.statusCode).toBe(409);
    // Refused refunds left nothing behind: neither money nor stock.
    expect(await fx.stockOf(stockId)).toBe(8);
    expect((await orderRow(orderNumber)).refunded_total).toBe(2500);

    const rest = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: order.total_including_delivery - 2500,
      reason: 'The rest',
      restock: [{ lineId, quantity: 2 }],
    });
    expect(rest.json()).toMatchObject({ refundedTotal: order.total_including_delivery, status: 'paid' });
    expect(await fx.stockOf(stockId)).toBe(10);
    expect(rest.json().refunds).toHaveLength(2);
  });

  it('puts back in stock only units the order still holds: not those of an order paid after its stock went to another', async () => {
    // Found by an outside attack: an order ended, its units sold to someone else, then paid
    // late (it could not take its stock again), refunded "with restock", added stock that never left.
    // (It ends by expiring: a payment for an order staff cancelled no longer pays it.)
    const p = await fx.product(2500, 3);
    const late = await placeOrderOf(p.stockId, 3);
    const lateId = (await orderRow(late.orderNumber)).id;
    expect(await t.db.kysely.transaction().execute((trx) => expireOrder(trx, lateId, new Date().toISOString()))).toBe(
      true,
    );
    const other = await placeOrderOf(p.stockId, 3);
    await pay(other.orderNumber);
    expect(await fx.stockOf(p.stockId)).toBe(0);
    await pay(late.orderNumber);
    expect((await orderRow(late.orderNumber)).payment_note).toMatch(/could not be taken again/);
    const lineId = (await admin('GET', `/orders/${late.orderNumber}`)).json().lines[0].id;
    const total = (await orderRow(late.orderNumber)).total_including_delivery;
    const restock = await admin('POST', `/orders/${late.orderNumber}/refund`, {
      amount: total,
      reason: 'Cannot fulfil',
      restock: [{ lineId, quantity: 3 }],
    });
    expect(restock.statusCode).toBe(409);
    expect(await fx.stockOf(p.stockId)).toBe(0);
    // The money can still go back, without the restock.
    expect(
      (await admin('POST', `/orders/${late.orderNumber}/refund`, { amount: total, reason: 'Cannot fulfil' }))
        .statusCode,
    ).toBe(200);
    expect(await fx.stockOf(p.stockId)).toBe(0);
  });

  it('takes none of a late-paid order’s stock again when one of its lines has gone to another order', async () => {
    const [plenty, scarce] = [await fx.product(2500, 10), await fx.product(1500, 2)];
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody(
        [
          { productStockId: plenty.stockId, requestedQty: 3 },
          { productStockId: scarce.stockId, requestedQty: 2 },
        ],
        { guest: { ...guest, email: `buyer${++orderCount}.${Date.now()}@example.com` } },
      ),
    });
    const late = commitResponseSchema.parse(committed.json());
    if (!late.ok) throw new Error(`expected an order: ${committed.body}`);
    const lateId = (await orderRow(late.orderNumber)).id;
    await t.db.kysely.transaction().execute((trx) => expireOrder(trx, lateId, new Date().toISOString()));
    await placeOrderOf(scarce.stockId, 1);
    await pay(late.orderNumber);
    expect(await orderRow(late.orderNumber)).toMatchObject({
      status: 'paid',
      holds_stock: 0,
      payment_note: expect.stringMatching(/could not be taken again/),
    });
    // The line that could have been taken again was not: the order holds none of its stock.
    expect(await fx.stockOf(plenty.stockId)).toBe(10);
    expect(await fx.stockOf(scarce.stockId)).toBe(1);
  });

  it('lets only one of two staff acting on one order at once succeed', async () => {
    const orderNumber = await states.paid();
    const dispatches = await Promise.all(
      ['DPD', 'Evri'].map((carrier) =>
        admin('POST', `/orders/${orderNumber}/dispatch`, { carrier, trackingNumber: `T${carrier}` }),
      ),
    );
    expect(dispatches.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const order = await orderRow(orderNumber);
    const mails = (await deliveredMail(t)).filter((m) => m.to === order.email && m.subject.includes('on its way'));
    expect(mails).toHaveLength(1);

    const twoThirds = Math.ceil((order.total_including_delivery * 2) / 3);
    const refunds = await Promise.all(
      [1, 2].map(() => admin('POST', `/orders/${orderNumber}/refund`, { amount: twoThirds, reason: 'Both at once' })),
    );
    expect(refunds.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await orderRow(orderNumber)).refunded_total).toBe(twoThirds);
  });

  // Two instances share PostgreSQL. SQLite serves one: two in this one process would wait for each
  // other's write lock on the one event loop (covered above with one instance), which two processes do not.
  if (testDialect === 'postgres') {
    it('lets two staff on two instances act on one order at once: one move each time, never a parcel for a refunded order', async () => {
      const second = await createSecondInstance(t);
      const on = (app: TestApp['app'], url: string, payload: object = {}) =>
        app.inject({ method: 'POST', url: `/api/admin${url}`, headers: { cookie }, payload });
      const mailsTo = async (email: string, subject: string) =>
        (await deliveredMail(t)).filter((m) => m.to === email && m.subject.includes(subject));
      const bothAtOnce = (url: (i: number) => string, payload: (i: number) => object) =>
        Promise.all([t.app, second.app].map((app, i) => on(app, url(i), payload(i))));
      try {
        // Both dispatch, both make ready, both mark collected: one move each, one e-mail.
        const delivery = await states.paid();
        const dispatched = await bothAtOnce(
          () => `/orders/${delivery}/dispatch`,
          (i) => ({ carrier: 'DPD', trackingNumber: `TWO${i}` }),
        );
        expect(dispatched.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        expect(await mailsTo((await orderRow(delivery)).email, 'on its way')).toHaveLength(1);

        const collection = await states['collection, paid']();
        const readied = await bothAtOnce(
          () => `/orders/${collection}/ready-for-collection`,
          () => ({}),
        );
        expect(readied.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        expect(await mailsTo((await orderRow(collection)).email, 'ready to collect')).toHaveLength(1);
        const collected = await bothAtOnce(
          () => `/orders/${collection}/collect`,
          () => ({}),
        );
        expect(collected.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        expect((await orderRow(collection)).fulfilment).toBe('collected');

        // One refunds in full while the other dispatches: the refund always goes through; the
        // parcel leaves only if its dispatch took the order first (its audit entry, written while
        // it held the order's row, comes before the refund's).
        for (let round = 0; round < 6; round++) {
          const orderNumber = await states.paid();
          const order = await orderRow(orderNumber);
          const [dispatch, refund] = await Promise.all([
            on(round % 2 ? t.app : second.app, `/orders/${orderNumber}/dispatch`, actions.dispatch),
            on(round % 2 ? second.app : t.app, `/orders/${orderNumber}/refund`, {
              amount: order.total_including_delivery,
              reason: 'Both at once',
            }),
          ]);
          expect(refund.statusCode, refund.body).toBe(200);
          const after = await orderRow(orderNumber);
          expect(after.refunded_total).toBe(order.total_including_delivery);
          const audit = await t.db.kysely
            .selectFrom('audit_log')
            .select(['id', 'action'])
            .where('entity_type', '=', 'order')
            .where('entity_id', '=', String(orderNumber))
            .orderBy('id')
            .execute();
          const mails = await mailsTo(order.email, 'on its way');
          if (dispatch.statusCode === 200) {
            expect(after.fulfilment).toBe('dispatched');
            expect(audit.map((entry) => entry.action)).toEqual(['order.dispatch', 'order.refund']);
            expect(mails).toHaveLength(1);
          } else {
            expect(dispatch.statusCode, dispatch.body).toBe(409);
            expect(after.fulfilment).toBe('unfulfilled');
            expect(audit.map((entry) => entry.action)).toEqual(['order.refund']);
            expect(mails).toHaveLength(0);
          }
          const waiting = (await admin('GET', `/orders?q=${orderNumber}&waiting=dispatch`)).json();
          expect(waiting.orders).toEqual([]);
        }
      } finally {
        await second.close();
      }
    });
  }

  it('finds orders by number, postcode however typed, e-mail and name, with filters and pages', async () => {
    const mine = await placeOrder({
      guest: { ...guest, firstname: 'Zubin', lastname: 'Quraishi', email: `Zubin.Q.${Date.now()}@Example.com` },
      deliveryAddress: {
        line1: '1 Tabla Lane',
        line2: '',
        line3: '',
        postcode: 'LE1 7ZZ',
        townCity: 'Leicester',
        countryId: 1,
      },
    });
    await pay(mine.orderNumber);
    const find = async (query: string) =>
      (await admin('GET', `/orders?${query}`)).json().orders.map((o: { orderNumber: number }) => o.orderNumber);
    for (const q of [
      'le17zz',
      'LE1 7ZZ',
      'le1',
      String(mine.orderNumber),
      `#${mine.orderNumber}`,
      'zubin.q.',
      'quraishi',
      'Zubin Q',
      'QURA',
    ]) {
      expect({ q, found: await find(`q=${encodeURIComponent(q)}`) }).toEqual({ q, found: [mine.orderNumber] });
    }
    expect(await find(`q=le17zz&paid=unpaid`)).toEqual([]);
    expect(await find(`q=le17zz&status=paid&fulfilment=unfulfilled&provider=paypal`)).toEqual([mine.orderNumber]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await find(`q=le17zz&from=${today}&to=${today}`)).toEqual([mine.orderNumber]);
    expect(await find(`q=le17zz&to=2020-01-01`)).toEqual([]);

    const all = (await admin('GET', '/orders?pageSize=5&page=1')).json();
    expect(all.total).toBeGreaterThan(5);
    expect(all.orders).toHaveLength(5);
    const second = (await admin('GET', '/orders?pageSize=5&page=2')).json();
    expect(second.orders[0].orderNumber).toBeLessThan(all.orders[4].orderNumber);
    const oldest = (await admin('GET', '/orders?sort=oldest&pageSize=1')).json();
    expect(oldest.orders[0].orderNumber).toBeLessThan(all.orders[0].orderNumber);
  });

  it('exports the filtered list as CSV for the accountant: pounds, VAT, and no formulas', async () => {
    const mine = await placeOrder({
      guest: {
        ...guest,
        firstname: '=HYPERLINK("http://evil.example")',
        lastname: 'Mehta',
        email: `csv.${Date.now()}@example.com`,
      },
      deliveryAddress: {
        line1: '2 Sitar Row',
        line2: '',
        line3: '',
        postcode: 'CV1 2CSV'.slice(0, 7),
        townCity: 'Coventry',
        countryId: 1,
      },
    });
    await pay(mine.orderNumber);
    const order = await orderRow(mine.orderNumber);
    const answer = await admin('GET', `/orders.csv?q=${mine.orderNumber}&paid=paid`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, row, end] = answer.body.split('\r\n');
    expect(header).toContain('Net (excl. VAT),VAT,Total');
    expect(end).toBe('');
    const pounds = (pence: number) => (pence / 100).toFixed(2);
    expect(row).toContain(
      [
        pounds(order.total_including_delivery - order.total_vat),
        pounds(order.total_vat),
        pounds(order.total_including_delivery),
      ].join(','),
    );
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"") Mehta"`);
    expect((await admin('GET', `/orders.csv?q=${mine.orderNumber}&paid=unpaid`)).body.split('\r\n')).toHaveLength(2);
  });

  it('exports every order of a long list, batch after batch, each once', async () => {
    const service = createOrdersAdminService(t.db.kysely, { csvBatch: 7 });
    let csv = '';
    for await (const chunk of service.csv({})) csv += chunk;
    const numbers = csv
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    const all = await t.db.kysely.selectFrom('orders').select('order_number').orderBy('id', 'desc').execute();
    expect(all.length).toBeGreaterThan(7 * 3);
    expect(numbers).toEqual(all.map((row) => row.order_number));
  });

  it('takes no order for a delivery rate over the cap left in the database from before it, so the order list keeps answering', async () => {
    // An outside attack saved a rate of 2^53 - 1 pence before rates were capped. Its £90-trillion
    // order was no safe integer: in development the order list, its page and its cancel answered
    // 500 (their answers' zod int() refuses it; the cancel after it was made); on PostgreSQL such a
    // total does not fit the column. Here each database holds the largest rate its column takes.
    const legacyRate = testDialect === 'sqlite' ? Number.MAX_SAFE_INTEGER : 2_147_483_647;
    const id = 900_001;
    await t.db.kysely
      .insertInto('delivery_methods')
      .values({
        id,
        country_id: 1,
        name: 'Huge rate',
        rate: legacyRate,
        min_items_total: null,
        max_items_total: null,
        sort_order: 9,
        active: 1,
      })
      .execute();
    try {
      const p = await fx.product(2500, 5);
      const items = [{ productStockId: p.stockId, requestedQty: 1 }];
      const verified = await t.app.inject({
        method: 'POST',
        url: '/api/verify-basket',
        payload: { items, deliveryAddress: { line1: 'x', countryId: 1 }, deliveryMethodRateId: id },
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const priced = pricedBasketSchema.parse(verified.json());
      expect(priced.deliveryMethodRates.map((m) => m.id)).not.toContain(id);
      expect(priced.deliveryMethodRateId).toBeNull();

      const committed = await t.app.inject({
        method: 'POST',
        url: '/api/basket',
        payload: commitBody(items, {
          guest: { ...guest, email: `huge.rate.${Date.now()}@example.com` },
          deliveryMethodRateId: id,
        }),
      });
      expect(committed.statusCode, committed.body).toBe(200);
      expect(commitResponseSchema.parse(committed.json()).ok).toBe(false);
      expect(await fx.stockOf(p.stockId)).toBe(5);

      const list = await admin('GET', '/orders?sort=total-high');
      expect(list.statusCode, list.body).toBe(200);
      expect(orderListSchema.parse(list.json()).orders[0]?.total ?? 0).toBeLessThanOrEqual(MAX_ORDER_TOTAL);
    } finally {
      await t.db.kysely.deleteFrom('delivery_methods').where('id', '=', id).execute();
    }
  });

  it('lists, shows and cancels an order of the most the shop takes, £1,000,000', async () => {
    const p = await fx.product(9_999_900, 10);
    // 10 units at £99,999.00 and express delivery at £9.95: £999,999.95.
    const { orderNumber } = await placeOrderOf(p.stockId, 10);
    const list = orderListSchema.parse((await admin('GET', `/orders?q=${orderNumber}`)).json());
    expect(list.orders).toEqual([expect.objectContaining({ orderNumber, total: 99_999_995 })]);
    const page = await admin('GET', `/orders/${orderNumber}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ itemsTotal: 99_999_000, deliveryPrice: 995 });
    const cancelled = await admin('POST', `/orders/${orderNumber}/cancel`, { reason: 'Test' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
  });

  it('names the field at fault in a bad query or body, and answers 404 for an unknown order', async () => {
    const badDate = await admin('GET', '/orders?from=yesterday');
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error.fields).toEqual([expect.objectContaining({ field: 'from' })]);
    // Dates of the right shape that do not exist once answered 500 (found by an outside attack).
    for (const day of ['0000-00-00', '9999-99-99', '2026-13-01', '2026-12-32', '2026-00-01', '2026-02-30']) {
      for (const url of [`/orders?to=${day}`, `/orders?from=${day}`, `/orders.csv?to=${day}`]) {
        const answer = await admin('GET', url);
        expect({ url, status: answer.statusCode }).toEqual({ url, status: 400 });
      }
    }
    const orderNumber = await states.paid();
    const noTracking = await admin('POST', `/orders/${orderNumber}/dispatch`, { carrier: 'DPD', trackingNumber: '' });
    expect(noTracking.statusCode).toBe(400);
    expect(noTracking.json().error.fields).toEqual([expect.objectContaining({ field: 'trackingNumber' })]);
    const noRefund = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 0, reason: 'x' });
    expect(noRefund.json().error.fields).toEqual([expect.objectContaining({ field: 'amount' })]);
    expect((await admin('GET', '/orders/999999999')).statusCode).toBe(404);
  });

  it('refuses a refund or a restock too large for any order with the field named, never a 500', async () => {
    const orderNumber = await states.paid();
    // Past what a 32-bit column holds: PostgreSQL once failed the sum itself.
    for (const amount of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const huge = await admin('POST', `/orders/${orderNumber}/refund`, { amount, reason: 'Huge' });
      expect({ amount, status: huge.statusCode }).toEqual({ amount, status: 400 });
      expect(huge.json().error.fields).toEqual([expect.objectContaining({ field: 'amount' })]);
    }
    const hugeLine = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1,
      reason: 'Huge line',
      restock: [{ lineId: 2 ** 31, quantity: 1 }],
    });
    expect(hugeLine.statusCode).toBe(400);
    expect(hugeLine.json().error.fields).toEqual([expect.objectContaining({ field: 'restock.0.lineId' })]);
    expect((await admin('GET', `/orders/${orderNumber}`)).json()).toMatchObject({ refundedTotal: 0, refunds: [] });
  });
});
