import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelOutcomesSchema, labelQueueSchema, type LabelOutcome } from '../../contract/admin/shipping.ts';
import { orderDetailSchema } from '../../contract/admin/orders.ts';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { paidGuestOrder } from '../../../test/helpers/paid-orders.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { loadConfig } from '../config.ts';
import { CLICK_AND_DROP_SANDBOX_PATH } from './shipping.feature.ts';

/**
 * Shipping labels against the local Click & Drop sandbox (issue 38; docs/back-office.md#shipping-labels):
 * the real client speaks the sandbox's HTTP API in-process. Time is the test's: the client's pace,
 * its waits and the sandbox's rate limit all read one clock that the client's sleep moves on.
 * Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
describe('shipping labels from the orders waiting to be dispatched', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let time = Date.parse('2026-11-28T09:00:00.000Z');
  /** Every answer the sandbox gave, and what to do to the next create call's answer. */
  const answers: Array<{ method: string; path: string; status: number }> = [];
  let loseNextCreateAnswer = false;
  /** The next create call never reaches Click & Drop (the connection failed on the way). */
  let dropNextCreate = false;
  /** The next labels PDF of several orders comes with a page more than it has orders (a customs form, say). */
  let padNextLabels = false;
  /** A DELETE held until the test lets it go, and who is told it arrived. */
  let holdNextDelete: Promise<void> | undefined;
  let releaseDelete: () => void = () => undefined;
  let holdReached: (() => void) | undefined;
  let orders = 0;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_FACTOR: '100' },
      labels: {
        now: () => time,
        sleep: async (ms) => {
          time += ms;
        },
        batchSize: 20,
        wrapFetch: (inner) =>
          (async (input: string | URL | Request, init?: RequestInit) => {
            if (init?.method === 'DELETE' && holdNextDelete) {
              const held = holdNextDelete;
              holdNextDelete = undefined;
              holdReached?.();
              await held;
            }
            if (dropNextCreate && init?.method === 'POST') {
              dropNextCreate = false;
              throw new TypeError('fetch failed: connect ECONNRESET');
            }
            const answer = await inner(input, init);
            const path = new URL(String(input)).pathname.replace(CLICK_AND_DROP_SANDBOX_PATH, '');
            answers.push({ method: init?.method ?? 'GET', path, status: answer.status });
            if (padNextLabels && path.endsWith('/label') && path.includes(';')) {
              padNextLabels = false;
              const padded = await PDFDocument.load(await answer.arrayBuffer());
              padded.addPage();
              return new Response(Buffer.from(await padded.save()), { status: 200, headers: answer.headers });
            }
            if (loseNextCreateAnswer && init?.method === 'POST') {
              loseNextCreateAnswer = false;
              throw new TypeError('fetch failed: socket hang up');
            }
            return answer;
          }) as typeof fetch,
      },
    });
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
    // Express (method 3, what the fixtures' checkouts choose) goes by Tracked 24 as a parcel.
    const setup = (await admin('GET', '/delivery')).json() as { methods: Array<Record<string, unknown>> };
    const express = setup.methods.find((method) => method.id === 3)!;
    const mapped = await admin('PUT', '/delivery-methods/3', {
      countryId: express.countryId,
      name: express.name,
      rate: express.rate,
      minItemsTotal: express.minItemsTotal,
      maxItemsTotal: express.maxItemsTotal,
      active: express.active,
      labels: { service: 'tracked24', packageFormat: 'parcel' },
    });
    expect(mapped.statusCode, mapped.body).toBe(200);
  });
  afterAll(() => t.close());

  function admin(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    return t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  }

  /** A paid order of one weighed unit (or an unweighed one), to `postcode`. */
  async function paidOrder(options: { postcode?: string; weighed?: boolean } = {}) {
    const product = await fx.product(4500, 10);
    if (options.weighed !== false)
      await t.db.kysely
        .updateTable('product_stocks')
        .set({ weight_grams: 1200 })
        .where('id', '=', product.stockId)
        .execute();
    orders += 1;
    const { orderNumber, row } = await paidGuestOrder(t, [{ stockId: product.stockId, quantity: 1 }], {
      email: `labels${orders}@example.com`,
      remoteAddress: `10.38.${Math.floor(orders / 250)}.${orders % 250}`,
      provider: 'paypal',
      providerStatus: 'Completed',
      paidAt: new Date(time).toISOString(),
      ...(options.postcode
        ? {
            extra: {
              deliveryAddress: {
                line1: '1 High Street',
                line2: '',
                line3: '',
                postcode: options.postcode,
                townCity: 'Leeds',
                countryId: 1,
              },
            },
          }
        : {}),
    });
    return { orderNumber, id: row.id };
  }

  const orderRow = (orderNumber: number) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();

  async function makeLabels(ids: number[]): Promise<LabelOutcome[]> {
    const answer = await admin('POST', '/labels', { orderIds: ids });
    expect(answer.statusCode, answer.body).toBe(200);
    return labelOutcomesSchema.parse(answer.json()).outcomes;
  }

  /** The reference the shop gave Click & Drop for this order's newest label. */
  async function referenceOf(orderId: number): Promise<string> {
    const label = await t.db.kysely
      .selectFrom('shipping_labels')
      .select('carrier_reference')
      .where('order_id', '=', orderId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return label.carrier_reference!;
  }

  /** What the sandbox holds under this reference, straight from its API. */
  async function sandboxOrders(reference: string) {
    // A second of its own, so the test's look does not eat into the client's calls.
    time += 1000;
    const answer = await t.app.inject({
      method: 'GET',
      url: `${CLICK_AND_DROP_SANDBOX_PATH}/orders/${encodeURIComponent(`"${reference}"`)}`,
      headers: { authorization: `Bearer ${t.config.clickAndDrop.apiKey}` },
    });
    return answer.statusCode === 404
      ? []
      : (answer.json() as Array<{ orderIdentifier: number; trackingNumber: string }>);
  }

  it('makes sixty orders in batches at the pace Click & Drop allows, each with a tracking number', async () => {
    const made: Array<{ orderNumber: number; id: number }> = [];
    for (let i = 0; i < 60; i++) made.push(await paidOrder());
    answers.length = 0;
    const started = time;
    const outcomes = await makeLabels(made.map((order) => order.id));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(made.map(() => 'created'));
    expect(new Set(outcomes.map((outcome) => outcome.trackingNumber)).size).toBe(60);
    for (const outcome of outcomes) expect(outcome.trackingNumber).toMatch(/^[A-Z]{2}\d{9}GB$/);
    // Three calls of twenty, none refused for going too fast: the client kept to two a second.
    expect(answers).toEqual([1, 2, 3].map(() => ({ method: 'POST', path: '/orders', status: 200 })));
    expect(time - started).toBeGreaterThanOrEqual(1000);

    const queue = labelQueueSchema.parse((await admin('GET', '/labels')).json());
    const mine = queue.orders.filter((entry) => made.some((order) => order.id === entry.orderId));
    expect(mine.map((entry) => entry.label?.status)).toEqual(made.map(() => 'created'));
    expect(mine[0]).toMatchObject({ service: 'Royal Mail Tracked 24', blocked: null });
  });

  it('waits out a 429 for as long as Retry-After says, then goes on', async () => {
    // A client set to outrun the sandbox's three calls a second.
    const hasty: Array<{ status: number; at: number }> = [];
    const fast = await createTestApp({
      labels: {
        now: () => time,
        sleep: async (ms) => {
          time += ms;
        },
        callsPerSecond: 100,
        wrapFetch: (inner) =>
          (async (input: string | URL | Request, init?: RequestInit) => {
            const answer = await inner(input, init);
            hasty.push({ status: answer.status, at: time });
            return answer;
          }) as typeof fetch,
      },
    });
    try {
      const shop = await checkoutFixtures(fast.db);
      const member = await staffMember(fast, 'staff');
      await fast.db.kysely
        .updateTable('delivery_methods')
        .set({ carrier_service: 'tracked48', package_format: 'parcel' })
        .execute();
      const ids = [];
      for (let i = 0; i < 4; i++) {
        const product = await shop.product(2000, 5);
        await fast.db.kysely
          .updateTable('product_stocks')
          .set({ weight_grams: 300 })
          .where('id', '=', product.stockId)
          .execute();
        const { row } = await paidGuestOrder(fast, [{ stockId: product.stockId, quantity: 1 }], {
          email: `hasty${i}@example.com`,
          remoteAddress: `10.39.0.${i + 1}`,
          provider: 'paypal',
          providerStatus: 'Completed',
          paidAt: new Date(time).toISOString(),
        });
        ids.push(row.id);
      }
      time += 1000;
      const outcomes = [];
      for (const id of ids) {
        const answer = await fast.app.inject({
          method: 'POST',
          url: '/api/admin/labels',
          headers: { cookie: member.cookie },
          payload: { orderIds: [id] },
        });
        outcomes.push(...labelOutcomesSchema.parse(answer.json()).outcomes);
      }
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['created', 'created', 'created', 'created']);
      // The fourth call in the second was refused, waited out for the second Retry-After gave, and made.
      expect(hasty.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 200]);
      expect(hasty[4]!.at - hasty[3]!.at).toBe(1000);
    } finally {
      await fast.close();
    }
  });

  it('after a lost answer, looks for the order by its reference and never makes a second', async () => {
    const order = await paidOrder();
    loseNextCreateAnswer = true;
    const [lost] = await makeLabels([order.id]);
    expect(lost).toMatchObject({ status: 'creating', trackingNumber: null });
    expect(lost!.message).toMatch(/did not answer/);
    // Click & Drop made it all the same.
    const held = await sandboxOrders(await referenceOf(order.id));
    expect(held).toHaveLength(1);

    // Pressed again at once (a double click), it is left to the press that started it: no call at all.
    answers.length = 0;
    const [inFlight] = await makeLabels([order.id]);
    expect(inFlight).toMatchObject({ status: 'creating', trackingNumber: null });
    expect(inFlight!.message).toMatch(/being made now/);
    expect(answers).toEqual([]);

    // A minute on, it is looked for by its reference and found.
    time += 60_000;
    answers.length = 0;
    const [found] = await makeLabels([order.id]);
    expect(found).toMatchObject({ status: 'created', trackingNumber: held[0]!.trackingNumber, message: null });
    expect(answers.map((answer) => `${answer.method} ${answer.path}`)).toEqual([
      `GET /orders/${encodeURIComponent(`"${await referenceOf(order.id)}"`)}`,
    ]);
    expect(await sandboxOrders(await referenceOf(order.id))).toHaveLength(1);
    // A third press answers the label it has.
    expect((await makeLabels([order.id]))[0]).toMatchObject({
      status: 'created',
      trackingNumber: held[0]!.trackingNumber,
    });
    const rows = await t.db.kysely.selectFrom('shipping_labels').selectAll().where('order_id', '=', order.id).execute();
    expect(rows.map((row) => row.status)).toEqual(['created']);
  });

  it('takes as its own only the Click & Drop order it made: one keyed by hand under the order number is left alone', async () => {
    const order = await paidOrder();
    // Someone keyed this order into Click & Drop by hand, under its order number, before the shop's
    // own attempt, which never arrived.
    time += 1000;
    const byHand = await t.app.inject({
      method: 'POST',
      url: `${CLICK_AND_DROP_SANDBOX_PATH}/orders`,
      headers: { authorization: `Bearer ${t.config.clickAndDrop.apiKey}` },
      payload: {
        items: [
          {
            orderReference: String(order.orderNumber),
            recipient: {
              address: {
                fullName: 'Someone Else',
                addressLine1: '9 Other Road',
                city: 'York',
                postcode: 'YO1 7HH',
                countryCode: 'GB',
              },
            },
            packages: [{ weightInGrams: 500, packageFormatIdentifier: 'parcel' }],
            orderDate: '2026-11-28T09:00:00Z',
            subtotal: 1,
            shippingCostCharged: 0,
            total: 1,
            currencyCode: 'GBP',
            postageDetails: { serviceCode: 'TOLP24' },
          },
        ],
      },
    });
    expect(byHand.statusCode, byHand.body).toBe(200);
    const foreign = (byHand.json() as { createdOrders: Array<{ trackingNumber: string }> }).createdOrders[0]!;
    dropNextCreate = true;
    expect((await makeLabels([order.id]))[0]).toMatchObject({ status: 'creating' });

    time += 60_000;
    const [made] = await makeLabels([order.id]);
    expect(made).toMatchObject({ status: 'created', message: null });
    expect(made!.trackingNumber).not.toBe(foreign.trackingNumber);
    const label = await t.db.kysely
      .selectFrom('shipping_labels')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(label.tracking_number).toBe(made!.trackingNumber);
    // The hand-made order and the shop's own, each under its own reference.
    expect(await sandboxOrders(String(order.orderNumber))).toHaveLength(1);
    expect(await sandboxOrders(label.carrier_reference!)).toMatchObject([{ trackingNumber: made!.trackingNumber }]);
  });

  it("shows Click & Drop's own words on the order it refused, and makes the others", async () => {
    const good = await paidOrder();
    const refused = await paidOrder({ postcode: 'ZZ1 1ZZ' });
    const alsoGood = await paidOrder();
    const unweighed = await paidOrder({ weighed: false });
    const outcomes = await makeLabels([good.id, refused.id, alsoGood.id, unweighed.id]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['created', 'failed', 'created', 'refused']);
    expect(outcomes[1]!.message).toBe('The postcode "ZZ1 1ZZ" is not a valid postcode for the United Kingdom.');
    expect(outcomes[3]!.message).toMatch(/has no weight: add it on the product's page/);
    const queue = labelQueueSchema.parse((await admin('GET', '/labels')).json());
    expect(queue.orders.find((entry) => entry.orderId === refused.id)?.label).toEqual({
      status: 'failed',
      trackingNumber: null,
      message: 'The postcode "ZZ1 1ZZ" is not a valid postcode for the United Kingdom.',
      changedSince: [],
    });
    expect(queue.orders.find((entry) => entry.orderId === unweighed.id)?.blocked).toMatch(/has no weight/);
  });

  /**
   * New delivery details for an order, as staff give them on its page. The orders service keeps
   * the system's clock and this suite's labels the test's: the change's audit entry is put at the
   * test's time, so which came first does not hang on the machine's date.
   */
  async function changeDetails(
    orderNumber: number,
    change: { line1?: string; postcode?: string; contactNumber?: string },
  ): Promise<void> {
    const row = await orderRow(orderNumber);
    const moved = await admin('PUT', `/orders/${orderNumber}/delivery-details`, {
      deliveryAddress: {
        line1: change.line1 ?? row.delivery_line1,
        townCity: row.delivery_town_city,
        postcode: change.postcode ?? row.delivery_postcode,
      },
      contactNumber: change.contactNumber ?? row.contact_number,
      email: row.email,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    time += 1000;
    const entry = await t.db.kysely
      .selectFrom('audit_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('entity_type', '=', 'order')
      .where('entity_id', '=', String(orderNumber))
      .where('action', '=', 'order.delivery-details')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('audit_log')
      .set({ at: new Date(time).toISOString() })
      .where('id', '=', entry.id)
      .execute();
  }

  const entryOf = async (orderId: number) =>
    labelQueueSchema.parse((await admin('GET', '/labels')).json()).orders.find((entry) => entry.orderId === orderId);

  it('tells when a refused label may be made now: its address was changed since, or what its parcel weighs', async () => {
    const moved = await paidOrder({ postcode: 'ZZ1 1ZZ' });
    const early = await paidOrder({ postcode: 'ZZ1 1ZZ' });
    const reweighed = await paidOrder({ postcode: 'ZZ1 1ZZ' });
    time += 1000;
    expect((await makeLabels([moved.id, reweighed.id])).map((outcome) => outcome.status)).toEqual(['failed', 'failed']);
    // Its address changed before it was refused (the postcode still wrong), though after the others were: that fixed nothing.
    await changeDetails(early.orderNumber, { line1: '2 High Street' });
    time += 1000;
    expect((await makeLabels([early.id]))[0]?.status).toBe('failed');
    const refusal = 'The postcode "ZZ1 1ZZ" is not a valid postcode for the United Kingdom.';
    expect((await entryOf(moved.id))?.label).toEqual({
      status: 'failed',
      trackingNumber: null,
      message: refusal,
      changedSince: [],
    });

    // A new contact number only: the address the label was refused for is the same.
    await changeDetails(moved.orderNumber, { contactNumber: '0113 496 0000' });
    expect((await entryOf(moved.id))?.label?.changedSince).toEqual([]);
    await changeDetails(moved.orderNumber, { postcode: 'LS1 4DY' });
    expect((await entryOf(moved.id))?.label).toEqual({
      status: 'failed',
      trackingNumber: null,
      message: refusal,
      changedSince: ['address'],
    });
    expect((await entryOf(early.id))?.label?.changedSince).toEqual([]);

    // The parcel weighs otherwise than the label asked for was weighed.
    const [line] = await t.db.kysely
      .selectFrom('order_lines')
      .select('product_stock_id')
      .where('order_id', '=', reweighed.id)
      .execute();
    await t.db.kysely
      .updateTable('product_stocks')
      .set({ weight_grams: 1500 })
      .where('id', '=', line!.product_stock_id)
      .execute();
    expect((await entryOf(reweighed.id))?.label?.changedSince).toEqual(['weight']);

    // Made again, to the new address: the refusal is behind it.
    time += 1000;
    expect((await makeLabels([moved.id]))[0]?.status).toBe('created');
    expect((await entryOf(moved.id))?.label).toMatchObject({ status: 'created', message: null, changedSince: [] });
  });

  it("says what each order's parcel holds and weighs as its label would be bought; a blocked one says why instead", async () => {
    const heavy = await fx.product(4500, 10);
    const boxed = await fx.product(2500, 10);
    const box = await t.db.kysely
      .insertInto('packagings')
      .values({ name: `Tabla box ${orders}`, length_mm: 450, width_mm: 450, height_mm: 350, weight_grams: 900 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('product_stocks')
      .set({ weight_grams: 1200 })
      .where('id', '=', heavy.stockId)
      .execute();
    await t.db.kysely
      .updateTable('product_stocks')
      .set({ weight_grams: 2500, packaging_id: box.id })
      .where('id', '=', boxed.stockId)
      .execute();
    orders += 1;
    const { row } = await paidGuestOrder(
      t,
      [
        { stockId: heavy.stockId, quantity: 2 },
        { stockId: boxed.stockId, quantity: 1 },
      ],
      {
        email: `labels${orders}@example.com`,
        remoteAddress: `10.38.${Math.floor(orders / 250)}.${orders % 250}`,
        provider: 'paypal',
        providerStatus: 'Completed',
        paidAt: new Date(time).toISOString(),
      },
    );
    const unweighed = await paidOrder({ weighed: false });

    const entry = await entryOf(row.id);
    // Two units of 1.2 kg, and one of 2.5 kg in its 0.9 kg box.
    expect(entry?.parcel).toEqual({
      contents: [
        { name: `${heavy.title} (Size 1)`, quantity: 2 },
        { name: `${boxed.title} (Size 1)`, quantity: 1 },
      ],
      weightGrams: 2 * 1200 + 2500 + 900,
    });
    expect(entry?.blocked).toBeNull();
    const blocked = await entryOf(unweighed.id);
    expect(blocked?.parcel).toBeNull();
    expect(blocked?.blocked).toMatch(/has no weight/);

    // The label is bought for that weight.
    time += 1000;
    await makeLabels([row.id]);
    const label = await t.db.kysely
      .selectFrom('shipping_labels')
      .select('weight_grams')
      .where('order_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(label.weight_grams).toBe(2 * 1200 + 2500 + 900);
  });

  it('prints the labels as one PDF in the order asked, and refuses an order without one', async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    await makeLabels([first.id, second.id]);
    const pdf = await admin('GET', `/labels.pdf?orders=${second.id},${first.id}`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);

    const bare = await paidOrder();
    const refused = await admin('GET', `/labels.pdf?orders=${first.id},${bare.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(
      `No label is ready for order ${bare.orderNumber}: make the labels first.`,
    );
  });

  it("prints in one go: each order's label followed by its packing slip, in the order asked", async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    const [a, b] = await makeLabels([first.id, second.id]);
    const answer = await admin('GET', `/labels-and-slips.pdf?orders=${second.id},${first.id}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="labels-and-slips-\d{4}-\d{2}-\d{2}\.pdf"$/,
    );
    const pdf = await getDocumentProxy(new Uint8Array(answer.rawPayload));
    const { text: pages } = await extractText(pdf);
    expect(pages).toHaveLength(4);
    expect(pages[0]).toContain(b!.trackingNumber!);
    expect(pages[1]).toContain(`${second.orderNumber}`);
    expect(pages[1]).toMatch(/Packing slip/i);
    expect(pages[2]).toContain(a!.trackingNumber!);
    expect(pages[3]).toContain(`${first.orderNumber}`);
    expect(pages[3]).toMatch(/Packing slip/i);
  });

  it("prints in one go when Click & Drop's PDF is not one page an order: each order's own label is fetched", async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    time += 1000;
    const [a, b] = await makeLabels([first.id, second.id]);
    time += 1000;
    padNextLabels = true;
    answers.length = 0;
    const answer = await admin('GET', `/labels-and-slips.pdf?orders=${second.id},${first.id}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answers.filter((one) => one.path.endsWith('/label'))).toHaveLength(3);
    const { text: pages } = await extractText(await getDocumentProxy(new Uint8Array(answer.rawPayload)));
    expect(pages).toHaveLength(4);
    expect(pages[0]).toContain(b!.trackingNumber!);
    expect(pages[0]).not.toContain(a!.trackingNumber!);
    expect(pages[1]).toMatch(/Packing slip/i);
    expect(pages[1]).toContain(`${second.orderNumber}`);
    expect(pages[2]).toContain(a!.trackingNumber!);
    expect(pages[3]).toMatch(/Packing slip/i);
    expect(pages[3]).toContain(`${first.orderNumber}`);
  });

  it('dispatches each order with its tracking number as a fulfilment, and e-mails its customer once', async () => {
    const made = [await paidOrder(), await paidOrder(), await paidOrder()];
    const emails = [orders - 2, orders - 1, orders].map((n) => `labels${n}@example.com`);
    const labels = await makeLabels(made.map((order) => order.id));
    const mails = async () =>
      t.db.kysely.selectFrom('mail_queue').select(['recipient', 'subject']).where('recipient', 'in', emails).execute();
    const before = (await mails()).length;

    const answer = await admin('POST', '/labels/dispatch', { orderIds: made.map((order) => order.id) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(labelOutcomesSchema.parse(answer.json()).outcomes.map((outcome) => outcome.status)).toEqual([
      'dispatched',
      'dispatched',
      'dispatched',
    ]);
    for (const [i, order] of made.entries()) {
      const detail = orderDetailSchema.parse((await admin('GET', `/orders/${order.orderNumber}`)).json());
      expect(detail.fulfilment).toBe('dispatched');
      expect(detail.fulfilments).toHaveLength(1);
      expect(detail.fulfilments[0]!.parcels).toEqual([
        expect.objectContaining({ carrier: 'Royal Mail', trackingNumber: labels[i]!.trackingNumber }),
      ]);
    }
    expect((await mails()).length - before).toBe(3);

    // Pressed again: nothing more is sent, and no one is e-mailed twice.
    const again = await admin('POST', '/labels/dispatch', { orderIds: made.map((order) => order.id) });
    expect(labelOutcomesSchema.parse(again.json()).outcomes.map((outcome) => outcome.status)).toEqual([
      'refused',
      'refused',
      'refused',
    ]);
    expect((await mails()).length - before).toBe(3);
  });

  it('cancels a label made by mistake in Click & Drop, and a new one can be made', async () => {
    const order = await paidOrder();
    const [first] = await makeLabels([order.id]);
    const cancelled = await admin('POST', `/labels/${order.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', trackingNumber: first!.trackingNumber });
    expect(await sandboxOrders(await referenceOf(order.id))).toEqual([]);
    expect((await admin('POST', `/labels/${order.id}/cancel`)).statusCode).toBe(409);
    const [second] = await makeLabels([order.id]);
    expect(second!.status).toBe('created');
    expect(second!.trackingNumber).not.toBe(first!.trackingNumber);
  });

  it('never both cancels a label and dispatches with it, when dispatch comes while Click & Drop cancels', async () => {
    // An outside attack: both answered 200; the order went out with a label deleted in Click & Drop.
    const order = await paidOrder();
    time += 1000;
    await makeLabels([order.id]);
    time += 1000;
    let reached!: () => void;
    const deleting = new Promise<void>((resolve) => (reached = resolve));
    holdNextDelete = new Promise<void>((resolve) => (releaseDelete = resolve));
    holdReached = reached;
    const cancelling = admin('POST', `/labels/${order.id}/cancel`);
    await deleting;
    const dispatched = await admin('POST', '/labels/dispatch', { orderIds: [order.id] });
    releaseDelete();
    const cancelled = await cancelling;
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(labelOutcomesSchema.parse(dispatched.json()).outcomes[0]).toMatchObject({ status: 'refused' });
    const rows = await t.db.kysely
      .selectFrom('shipping_labels')
      .select('status')
      .where('order_id', '=', order.id)
      .execute();
    expect(rows.map((row) => row.status)).toEqual(['cancelled']);
    expect((await orderRow(order.orderNumber)).fulfilment).toBe('unfulfilled');
  });

  it('refuses a new delivery address while a label to the old one waits, until that label is cancelled', async () => {
    // An outside attack: the list showed the new postcode while the label printed the old address.
    const order = await paidOrder();
    time += 1000;
    await makeLabels([order.id]);
    const details = {
      deliveryAddress: { line1: '9 New Road', townCity: 'York', postcode: 'YO1 7HH' },
      contactNumber: '01904 000000',
      email: (await orderRow(order.orderNumber)).email,
    };
    const moved = await admin('PUT', `/orders/${order.orderNumber}/delivery-details`, details);
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error.message).toBe(
      'This order has a shipping label to its address: cancel the label on the labels page first, then change the address.',
    );
    time += 1000;
    expect((await admin('POST', `/labels/${order.id}/cancel`)).statusCode).toBe(200);
    const again = await admin('PUT', `/orders/${order.orderNumber}/delivery-details`, details);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('buys one label when two members press "Make labels" at the same moment', async () => {
    const order = await paidOrder();
    time += 1000;
    const [a, b] = await Promise.all([makeLabels([order.id]), makeLabels([order.id])]);
    const statuses = [a![0]!.status, b![0]!.status].sort();
    expect(statuses).toContain('created');
    expect(await sandboxOrders(await referenceOf(order.id))).toHaveLength(1);
    const rows = await t.db.kysely
      .selectFrom('shipping_labels')
      .select('status')
      .where('order_id', '=', order.id)
      .execute();
    expect(rows.map((row) => row.status)).toEqual(['created']);
  });

  it('refuses an order named twice, one not waiting to be sent, and one that does not exist, naming them', async () => {
    const order = await paidOrder();
    const twice = await admin('POST', '/labels', { orderIds: [order.id, order.id] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.fields).toEqual([{ field: 'orderIds', message: 'Each order once' }]);
    const missing = await admin('POST', '/labels', { orderIds: [2_000_000_000] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual([
      { field: 'orderIds', message: 'There is no order with id 2000000000' },
    ]);
    // Sent already: nothing is bought for it.
    const [made] = await makeLabels([order.id]);
    await admin('POST', '/labels/dispatch', { orderIds: [order.id] });
    const [again] = await makeLabels([order.id]);
    expect(made!.status).toBe('created');
    expect(again).toMatchObject({ status: 'refused', message: 'It is not waiting to be dispatched.' });
  });

  it('is refused to a stranger, and the sandbox refuses a wrong key with its error body', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/labels' })).statusCode).toBe(401);
    const wrongKey = await t.app.inject({
      method: 'POST',
      url: `${CLICK_AND_DROP_SANDBOX_PATH}/orders`,
      headers: { authorization: 'Bearer not-the-key' },
      payload: { items: [] },
    });
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json()).toEqual({ code: 'Unauthorized', message: 'The API key is missing or not valid.' });
  });

  it("keeps the sandbox to the shop: its key is drawn at start, so a stranger cannot cancel the demo's labels", async () => {
    // An outside attack: the key was a fixed string in the source, so anyone reaching a demo shop
    // could delete the orders its labels were made for, or spend its rate limit.
    const order = await paidOrder();
    time += 1000;
    await makeLabels([order.id]);
    time += 1000;
    for (const key of ['local-click-and-drop-sandbox-key', loadConfig({}).clickAndDrop.apiKey]) {
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `${CLICK_AND_DROP_SANDBOX_PATH}/orders/${encodeURIComponent(`"${await referenceOf(order.id)}"`)}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(deleted.statusCode).toBe(401);
    }
    expect(await sandboxOrders(await referenceOf(order.id))).toHaveLength(1);
  });
});
