import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { REGISTRATION_PASSWORD, registrationBody } from '../../../test/helpers/registration.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDatabaseUrl, testDialect } from '../../../test/helpers/test-db.ts';
import { insertRefundRequest } from '../orders/order-refunds.repository.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';

/**
 * Customers in the back office (docs/back-office.md#customers): finding one, and a UK GDPR request
 * answered both ways: everything held about them as JSON, and erasure that leaves the accounts whole.
 */
describe('back office customers', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let made = 0;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A registered, signed-in customer with an order placed signed in, a guest order and a message. */
  async function customerWithHistory() {
    const email = `Rohan.Verma.${++made}.${Date.now()}@Example.com`;
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(email, { firstname: 'Rohan', lastname: `Verma${made}x` }),
    });
    await t.db.kysely
      .updateTable('customers')
      .set({ verified_at: new Date().toISOString() })
      .where('email', '=', email.toLowerCase())
      .execute();
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/sign-in',
        payload: { username: email, password: REGISTRATION_PASSWORD },
      })
    ).json() as string;
    const p = await fx.product(1500, 10);
    const place = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/basket',
        headers,
        payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
          guest: { ...guest, firstname: 'Rohan', lastname: 'Verma', email },
        }),
        remoteAddress: `10.4.${made}.1`,
      });
    const signedInOrder = commitResponseSchema.parse((await place({ authorization: `Bearer ${token}` })).json());
    const guestOrder = commitResponseSchema.parse((await place({})).json());
    await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Rohan Verma', email, phone: '07700 900123', message: 'Is the dhol strap adjustable?' },
      remoteAddress: `10.4.${made}.2`,
    });
    const customer = await t.db.kysely
      .selectFrom('customers')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    if (!signedInOrder.ok || !guestOrder.ok) throw new Error('expected orders');
    return { email, token, customer, orders: [signedInOrder, guestOrder] };
  }

  it('finds a customer by e-mail, surname or full name, and shows their orders, signed in or not', async () => {
    const { email, customer, orders } = await customerWithHistory();
    for (const q of [email.slice(0, 12), customer.lastname.toUpperCase(), `rohan ${customer.lastname}`]) {
      const found = (await admin('GET', `/customers?q=${encodeURIComponent(q)}`)).json();
      expect({ q, ids: found.customers.map((c: { account: { id: number } }) => c.account.id) }).toEqual({
        q,
        ids: [customer.id],
      });
    }
    const detail = (await admin('GET', `/customers/${customer.id}`)).json();
    expect(detail).toMatchObject({ id: customer.id, email: email.toLowerCase(), verified: true, erased: false });
    expect(detail.orders.map((o: { orderNumber: number }) => o.orderNumber).sort()).toEqual(
      orders.map((o) => o.ok && o.orderNumber).sort(),
    );
    expect((await admin('GET', '/customers/999999999')).statusCode).toBe(404);
  });

  it('exports everything held about a customer as JSON, without their password hash', async () => {
    const { email, customer } = await customerWithHistory();
    const answer = await admin('GET', `/customers/${customer.id}/export`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="customer-${customer.id}.json"`);
    const data = answer.json();
    expect(data.account).toMatchObject({ id: customer.id, email: email.toLowerCase(), firstname: 'Rohan' });
    expect(JSON.stringify(data)).not.toContain(customer.password_hash);
    expect(data.orders).toHaveLength(2);
    expect(data.orders[0].lines).toHaveLength(1);
    expect(data.contactMessages).toEqual([expect.objectContaining({ message: 'Is the dhol strap adjustable?' })]);
    const log = (await admin('GET', `/customers/${customer.id}`)).json().audit;
    expect(log).toEqual([expect.objectContaining({ action: 'customer.export' })]);
  });

  it('erases a customer once confirmed: no sign-in, no personal data, orders kept for the accounts', async () => {
    const { email, token, customer, orders } = await customerWithHistory();
    // Staff wrote the customer's name into a refund's reason (found by an outside attack: it stayed).
    const paidOne = orders[0]!.ok ? orders[0]!.orderNumber : 0;
    // Paid and dispatched: nothing is left to fulfil, so nothing stops the erasure.
    await t.db.kysely
      .updateTable('orders')
      .set({ status: 'paid', paid_at: new Date().toISOString(), fulfilment: 'dispatched' })
      .where('order_number', '=', paidOne)
      .execute();
    const refund = await admin('POST', `/orders/${paidOne}/refund`, {
      amount: 100,
      reason: `${customer.lastname} rang, 07700 900111`,
    });
    expect(refund.statusCode).toBe(200);
    // A refund through a provider keeps its request, with the same reason, beside the refund.
    const paidRow = await t.db.kysely
      .selectFrom('orders')
      .select('id')
      .where('order_number', '=', paidOne)
      .executeTakeFirstOrThrow();
    await insertRefundRequest(t.db.kysely, {
      orderId: paidRow.id,
      provider: 'paypal-checkout',
      amount: 100,
      requestId: `refund-${paidOne}`,
      note: `${customer.lastname} rang again, 07700 900111`,
      at: new Date().toISOString(),
    });
    const unpaidOne = orders[1]!.ok ? orders[1]!.orderNumber : 0;
    await admin('POST', `/orders/${unpaidOne}/cancel`, { reason: `Duplicate of ${customer.lastname}'s order` });

    const totalsBefore = await t.db.kysely
      .selectFrom('orders')
      .select(['order_number', 'total_including_delivery', 'total_vat', 'items_total', 'status'])
      .where(
        'order_number',
        'in',
        orders.map((o) => (o.ok ? o.orderNumber : 0)),
      )
      .orderBy('order_number')
      .execute();

    const wrong = await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: 'someone.else@example.com' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual([expect.objectContaining({ field: 'confirmEmail' })]);

    const erased = await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email.toUpperCase() });
    expect(erased.statusCode).toBe(200);
    expect(erased.json()).toMatchObject({
      erased: true,
      contactNumber: '',
      billingAddress: { line1: '', postcode: '' },
    });
    expect((await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email })).statusCode).toBe(409);

    // Nothing personal is left anywhere: not in the account, orders, messages, mail or payment notes.
    const tables = [
      'customers',
      'orders',
      'order_refunds',
      'refund_requests',
      'contact_messages',
      'mail_queue',
      'payment_events',
      'sessions',
      'audit_log',
    ] as const;
    for (const table of tables) {
      const rows = await t.db.kysely.selectFrom(table).selectAll().execute();
      const text = JSON.stringify(rows).toLowerCase();
      const mentions = [email.toLowerCase(), customer.lastname.toLowerCase(), '07700 900111'].filter((term) =>
        text.includes(term),
      );
      expect({ table, mentions }).toEqual({ table, mentions: [] });
    }
    // The session ended, and the old password opens nothing.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/who-am-i', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/sign-in',
          payload: { username: email, password: REGISTRATION_PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    // The accounts still add up.
    const totalsAfter = await t.db.kysely
      .selectFrom('orders')
      .select(['order_number', 'total_including_delivery', 'total_vat', 'items_total', 'status'])
      .where(
        'order_number',
        'in',
        orders.map((o) => (o.ok ? o.orderNumber : 0)),
      )
      .orderBy('order_number')
      .execute();
    expect(totalsAfter).toEqual(totalsBefore);
    // The address is free to register again, as a new customer.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) })).json(),
    ).toEqual({ errorCode: 0 });
  });

  /** A guest order placed with an address, by whoever typed it. */
  async function guestOrder(email: string) {
    const p = await fx.product(1200, 10);
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
        guest: { ...guest, firstname: 'Priya', lastname: 'Guest', email },
      }),
      remoteAddress: `10.5.${++made}.1`,
    });
    const order = commitResponseSchema.parse(placed.json());
    if (!order.ok) throw new Error('expected an order');
    return order;
  }

  const orderByNumber = (orderNumber: number) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();

  it('gives an account whose address was never verified neither the guest orders placed with it nor their erasure', async () => {
    // Priya shops as a guest; a stranger then registers her address and never verifies it.
    const email = `meera.${++made}.${Date.now()}@example.com`;
    const hers = await guestOrder(email);
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    const stranger = await t.db.kysely
      .selectFrom('customers')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(stranger.verified_at).toBeNull();

    expect((await admin('GET', `/customers/${stranger.id}`)).json().orders).toEqual([]);
    const exported = (await admin('GET', `/customers/${stranger.id}/export`)).json();
    expect(exported.orders).toEqual([]);
    expect(JSON.stringify(exported)).not.toContain('Priya');

    const erased = await admin('POST', `/customers/${stranger.id}/erase`, { confirmEmail: email });
    expect(erased.statusCode).toBe(200);
    // Her order still knows who she is and where it goes.
    const order = await orderByNumber(hers.orderNumber);
    expect(order).toMatchObject({ email, firstname: 'Priya', lastname: 'Guest' });
    expect(order.delivery_line1).not.toBe('');
  });

  it('refuses to erase a customer while an order awaits payment holding stock, or is paid and not dispatched', async () => {
    const { email, customer, orders } = await customerWithHistory();
    const [first, second] = orders.map((o) => (o.ok ? o.orderNumber : 0)) as [number, number];

    // Both orders await payment and hold their stock.
    const unpaid = await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error.code).toBe('CUSTOMER_HAS_LIVE_ORDERS');
    expect(unpaid.json().error.message).toContain(`order ${first} is awaiting payment and holds stock`);
    expect(unpaid.json().error.message).toContain(`order ${second} is awaiting payment and holds stock`);

    // One is cancelled, the other paid: that one is still to be sent.
    expect((await admin('POST', `/orders/${second}/cancel`, {})).statusCode).toBe(200);
    await t.db.kysely
      .updateTable('orders')
      .set({ status: 'paid', paid_at: new Date().toISOString() })
      .where('order_number', '=', first)
      .execute();
    const paid = await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().error.message).toContain(`order ${first} is paid and not yet dispatched`);
    expect(paid.json().error.message).not.toContain(`order ${second}`);
    // Nothing was erased by the refusals.
    expect((await orderByNumber(first)).firstname).toBe('Rohan');
    expect((await admin('GET', `/customers/${customer.id}`)).json()).toMatchObject({ erased: false });

    // Part sent, the rest to come: its address is still needed.
    await t.db.kysely
      .updateTable('orders')
      .set({ fulfilment: 'partially_dispatched' })
      .where('order_number', '=', first)
      .execute();
    const part = await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email });
    expect(part.statusCode).toBe(409);
    expect(part.json().error.message).toContain(`order ${first} is paid and only partly dispatched`);

    const dispatched = await admin('POST', `/orders/${first}/dispatch`, {
      carrier: 'Royal Mail',
      trackingNumber: 'AB123456789GB',
    });
    expect(dispatched.statusCode).toBe(200);
    expect((await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email })).statusCode).toBe(200);
  });

  it('refuses erasure when a payment lands on one of the orders while it is being erased', async () => {
    if (testDialect === 'sqlite') {
      // SQLite: one connection, lent to one transaction at a time, so a payment cannot land between
      // erasure's look at the orders and its blanking of them.
      expect(t.db.checkout).toBe(t.db.kysely);
      return;
    }
    const { email, customer, orders } = await customerWithHistory();
    const [first, second] = orders.map((o) => (o.ok ? o.orderNumber : 0)) as [number, number];
    for (const number of [first, second])
      expect((await admin('POST', `/orders/${number}/cancel`, {})).statusCode).toBe(200);
    // A late payment for the first order, applied in a transaction of its own that erasure meets.
    const payment = new pg.Client({ connectionString: testDatabaseUrl });
    await payment.connect();
    try {
      await payment.query(`set search_path = ${t.database.pgSchema}`);
      await payment.query('begin');
      await payment.query(`update orders set status = 'paid', paid_at = $1 where order_number = $2`, [
        new Date().toISOString(),
        first,
      ]);
      const erasing = admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email });
      const waiting = async () =>
        Number(
          (
            await payment.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
            )
          ).rows[0]!.n,
        );
      await vi.waitFor(async () => expect(await waiting()).toBeGreaterThan(0), { timeout: 20_000, interval: 20 });
      await payment.query('commit');
      const answer = await erasing;
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().error.message).toContain(`order ${first} is paid and not yet dispatched`);
      expect((await orderByNumber(first)).firstname).toBe('Rohan');
    } finally {
      await payment.end();
    }
  });

  it("keeps other people's queued mail that merely contains the erased address", async () => {
    const { email, customer, orders } = await customerWithHistory();
    for (const order of orders) if (order.ok) await admin('POST', `/orders/${order.orderNumber}/cancel`, {});
    const address = email.toLowerCase();
    // Someone whose address ends with the erased one has mail waiting (not yet due, so it stays queued).
    const longer = `jo${address}`;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const queue = (to: string, subject: string, paragraphs: string[]) =>
      insertMail(t.db.kysely, { to, subject, paragraphs }, later);
    await queue(longer, 'Your order is confirmed', [`We will write to ${longer} when it is on its way.`]);
    await queue('hello@raag-instruments.example', 'Enquiry from Jo', [`From: Jo <${longer}>, telephone 07700 900456`]);
    // Mail to the erased address, and the shop's copy of their own enquiry, go.
    await queue(email, 'Your order is confirmed', ['Thank you.']);
    await queue('hello@raag-instruments.example', 'Enquiry from Rohan', [`From: Rohan <${email}>, telephone 07700`]);
    const waiting = () =>
      t.db.kysely
        .selectFrom('mail_queue')
        .select(['recipient', 'subject'])
        .where('next_attempt_at', '=', later)
        .orderBy('id')
        .execute();
    expect(await waiting()).toHaveLength(4);

    expect((await admin('POST', `/customers/${customer.id}/erase`, { confirmEmail: email })).statusCode).toBe(200);
    expect(await waiting()).toEqual([
      { recipient: longer, subject: 'Your order is confirmed' },
      { recipient: 'hello@raag-instruments.example', subject: 'Enquiry from Jo' },
    ]);
  });
});
