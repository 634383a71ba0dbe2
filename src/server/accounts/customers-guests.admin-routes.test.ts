import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerList, CustomerRecord, CustomerRow } from '../../contract/admin/customers.ts';
import { commitResponseSchema } from '../../contract/basket.ts';
import { address, checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { REGISTRATION_PASSWORD, registrationBody } from '../../../test/helpers/registration.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { markOrderPaid } from '../orders/order-lifecycle.ts';
import { listCustomerRows } from './customer-list.admin-repository.ts';

/**
 * A customer is an e-mail address with orders, registered or not (docs/back-office.md#customers):
 * guests are listed beside accounts, found by name, e-mail, postcode or address, with their orders,
 * the orders they paid for and what they spent net of refunds.
 */
describe('back office customers, guests included', () => {
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

  const admin = (url: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const find = async (q: string, extra = ''): Promise<CustomerRow[]> => {
    const answer = await admin(`/customers?q=${encodeURIComponent(q)}${extra}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as CustomerList).customers;
  };
  const record = async (ref: string): Promise<CustomerRecord> => {
    const answer = await admin(`/customers/ref/${ref}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  const unique = () => `${++made}${Date.now().toString(36)}`;

  /** An order of one £15 unit with express delivery (£9.95): £24.95. */
  async function placeOrder(
    details: { email: string; firstname?: string; lastname?: string; postcode?: string; line1?: string },
    headers: Record<string, string> = {},
  ) {
    const p = await fx.product(1500, 10);
    const where = { ...address, postcode: details.postcode ?? address.postcode, line1: details.line1 ?? address.line1 };
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      headers,
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
        guest: {
          ...guest,
          email: details.email,
          firstname: details.firstname ?? 'Asha',
          lastname: details.lastname ?? 'Kaur',
        },
        billingAddress: where,
        deliveryAddress: where,
      }),
      remoteAddress: `10.5.${made % 250}.${(made * 7) % 250}`,
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error(`expected an order: ${committed.body}`);
    return result.orderNumber;
  }

  async function pay(orderNumber: number) {
    const order = await t.db.kysely
      .selectFrom('orders')
      .selectAll()
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
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

  it('counts a guest’s orders under one address whatever its case, and shows them on the guest’s page', async () => {
    const id = unique();
    const first = await placeOrder({
      email: `Priya.Shah.${id}@Example.COM`,
      firstname: 'Priya',
      lastname: `Shah${id}`,
    });
    const second = await placeOrder({
      email: `priya.shah.${id}@example.com`,
      firstname: 'Priya',
      lastname: `Shah${id}`,
    });
    await pay(second);

    const rows = await find(`PRIYA.SHAH.${id}@`);
    expect(rows).toEqual([
      expect.objectContaining({
        ref: `o${first}`,
        email: `priya.shah.${id}@example.com`,
        name: `Priya Shah${id}`,
        account: null,
        orderCount: 2,
        paidOrders: 1,
        totalSpent: 2495,
      }),
    ]);
    expect(rows[0]!.lastOrderAt).toEqual(expect.any(String));
    // Found by surname and by first name and surname, in any case.
    expect((await find(`shah${id}`)).map((row) => row.ref)).toEqual([`o${first}`]);
    expect((await find(`priya SHAH${id}`)).map((row) => row.ref)).toEqual([`o${first}`]);

    // The page, by either order of the guest's.
    for (const ref of [`o${first}`, `o${second}`]) {
      const page = await record(ref);
      expect(page).toMatchObject({ ref: `o${first}`, account: null, orderCount: 2, paidOrders: 1, totalSpent: 2495 });
      expect(page.orders.map((order) => order.orderNumber)).toEqual([second, first]);
    }
    expect((await admin('/customers/ref/o999999999')).statusCode).toBe(404);
    expect((await admin('/customers/ref/a999999999')).statusCode).toBe(404);
  });

  it('makes a registered customer with guest orders from before they registered one customer', async () => {
    const id = unique();
    const email = `Dev.Patel.${id}@Example.com`;
    const before = await placeOrder({ email: email.toUpperCase(), firstname: 'Dev', lastname: 'Patel' });
    await pay(before);
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(email, { firstname: 'Devendra', lastname: `Patel${id}` }),
      remoteAddress: `10.6.${made % 250}.1`,
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
    // Signed in, an order given another address is still the account's.
    const signedIn = await placeOrder({ email: `dev.work.${id}@example.com` }, { authorization: `Bearer ${token}` });
    const account = await t.db.kysely
      .selectFrom('customers')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();

    const rows = await find(`dev.patel.${id}`);
    expect(rows).toEqual([
      expect.objectContaining({
        ref: `a${account.id}`,
        email: email.toLowerCase(),
        name: `Devendra Patel${id}`,
        account: expect.objectContaining({ id: account.id, verified: true, erased: false }),
        orderCount: 2,
        paidOrders: 1,
        totalSpent: 2495,
      }),
    ]);
    // The other address is no customer of its own: searching for it finds the account.
    expect((await find(`dev.work.${id}@`)).map((row) => row.ref)).toEqual([`a${account.id}`]);
    // The guest order's reference leads to the registered customer.
    const page = await record(`o${before}`);
    expect(page.ref).toBe(`a${account.id}`);
    expect(page.orders.map((order) => order.orderNumber)).toEqual([signedIn, before]);
    expect(await record(`a${account.id}`)).toEqual(page);
  });

  it('counts what was paid less what was refunded, and no unpaid order', async () => {
    const id = unique();
    const email = `meena.${id}@example.com`;
    const [a, b, unpaid] = [await placeOrder({ email }), await placeOrder({ email }), await placeOrder({ email })];
    await pay(a);
    await pay(b);
    expect((await admin(`/orders/${a}/refund`, 'POST', { amount: 1000, reason: 'Goodwill' })).statusCode).toBe(200);
    expect((await admin(`/orders/${b}/refund`, 'POST', { amount: 2495, reason: 'Returned' })).statusCode).toBe(200);
    const [row] = await find(email);
    // Both were paid for; £24.95 - £10 + £24.95 - £24.95 is left.
    expect(row).toMatchObject({ orderCount: 3, paidOrders: 2, totalSpent: 1495 });
    expect((await record(row!.ref)).orders.map((order) => order.orderNumber)).toEqual([unpaid, b, a]);
  });

  it('finds a guest by postcode or the start of an address, in any case, with or without the space', async () => {
    const id = unique();
    const district = 10 + (made % 80);
    const email = `post.${id}@example.com`;
    const orderNumber = await placeOrder({ email, postcode: `ZE${district} 9QQ`, line1: `${id} Sitar Lane` });
    for (const q of [`ze${district} 9qq`, `ZE${district}9Q`, `${id} sitar`, `${id.toUpperCase()} SITAR LANE`]) {
      expect({ q, refs: (await find(q)).map((row) => row.ref) }).toEqual({ q, refs: [`o${orderNumber}`] });
    }
  });

  it('lists accounts without orders and guests together, sorted and in pages', async () => {
    const id = unique();
    const lastname = `Sorter${id}`;
    const big = `big.${id}@example.com`;
    const small = `small.${id}@example.com`;
    for (const email of [big, big, small]) await pay(await placeOrder({ email, lastname }));
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(`none.${id}@example.com`, { firstname: 'Nadia', lastname }),
      remoteAddress: `10.7.${made % 250}.1`,
    });
    const emails = async (extra: string) => (await find(lastname.toLowerCase(), extra)).map((row) => row.email);
    expect(await emails('&sort=spent')).toEqual([big, small, `none.${id}@example.com`]);
    expect(await emails('&sort=email')).toEqual([big, `none.${id}@example.com`, small]);
    expect(await emails('')).toEqual([small, big, `none.${id}@example.com`]);
    const second = (await admin(`/customers?q=${lastname}&sort=email&pageSize=2&page=2`)).json() as CustomerList;
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.customers.map((row) => row.email)).toEqual([small]);
    const none = (await find(`none.${id}@`))[0]!;
    expect(none).toMatchObject({
      orderCount: 0,
      paidOrders: 0,
      totalSpent: 0,
      lastOrderAt: null,
      name: `Nadia ${lastname}`,
    });
    expect(await record(none.ref)).toMatchObject({ email: `none.${id}@example.com`, orders: [] });

    // With no search, every customer is listed, guests too.
    const all = (await admin('/customers?pageSize=100')).json() as CustomerList;
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.customers.map((row) => row.email)).toEqual(expect.arrayContaining([big, small]));
  });

  it('pages the whole list by last order or by e-mail address, each customer once, as one page would', async () => {
    const id = unique();
    // A guest, a registered customer with orders and an account with none, on top of the others' data.
    await pay(await placeOrder({ email: `whole.guest.${id}@example.com` }));
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(`whole.none.${id}@example.com`, { firstname: 'Zia', lastname: 'Noorders' }),
      remoteAddress: `10.8.${made % 250}.1`,
    });
    const pageOf = async (sort: string, page: number, pageSize: number) =>
      (await admin(`/customers?sort=${sort}&page=${page}&pageSize=${pageSize}`)).json() as CustomerList;
    for (const sort of ['recent', 'email', 'spent']) {
      const whole = await pageOf(sort, 1, 100);
      expect(whole.total).toBe(whole.customers.length);
      const paged: CustomerRow[] = [];
      for (let page = 1; page <= Math.ceil(whole.total / 3) + 1; page++) {
        const answer = await pageOf(sort, page, 3);
        expect(answer.total).toBe(whole.total);
        paged.push(...answer.customers);
      }
      expect({ sort, emails: paged.map((row) => row.email) }).toEqual({
        sort,
        emails: whole.customers.map((row) => row.email),
      });
      expect(new Set(paged.map((row) => row.email)).size).toBe(paged.length);
      expect(paged.map((row) => row.email)).toEqual(
        expect.arrayContaining([`whole.guest.${id}@example.com`, `whole.none.${id}@example.com`]),
      );
      // The sums are the same however the customer is found.
      for (const row of paged) expect((await find(row.email)).find((found) => found.ref === row.ref)).toEqual(row);
    }
    // The walk by last order gives the same pages however many orders it reads at a time.
    const whole = (await pageOf('recent', 1, 100)).customers.map((row) => row.email);
    for (const walkBatch of [1, 2, 5]) {
      const walked: string[] = [];
      for (let offset = 0; offset < whole.length + 4; offset += 4) {
        const { rows } = await listCustomerRows(
          t.db.kysely,
          { all: true },
          { sort: 'recent', limit: 4, offset, walkBatch },
        );
        walked.push(...rows.map((row) => row.k));
      }
      expect({ walkBatch, walked }).toEqual({ walkBatch, walked: whole });
    }
    const recent = (await pageOf('recent', 1, 100)).customers;
    const dates = recent.map((row) => row.lastOrderAt ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    const spent = (await pageOf('spent', 1, 100)).customers.map((row) => row.totalSpent);
    expect(spent).toEqual([...spent].sort((a, b) => b - a));
  });

  it('refuses bad input, naming the field', async () => {
    const fieldOf = async (url: string) => {
      const answer = await admin(url);
      expect(answer.statusCode, url).toBe(400);
      return (answer.json() as { error: { fields: Array<{ field: string }> } }).error.fields.map((f) => f.field);
    };
    expect(await fieldOf('/customers?page=0')).toEqual(['page']);
    expect(await fieldOf('/customers?page=x')).toEqual(['page']);
    expect(await fieldOf('/customers?pageSize=1000')).toEqual(['pageSize']);
    expect(await fieldOf(`/customers?q=${'a'.repeat(101)}`)).toEqual(['q']);
    expect(await fieldOf('/customers?sort=cheapest')).toEqual(['sort']);
    expect(await fieldOf(`/customers/ref/${encodeURIComponent('someone@example.com')}`)).toEqual(['ref']);
    expect(await fieldOf('/customers/ref/o0')).toEqual(['ref']);
  });

  it('shows nothing to anyone but staff', async () => {
    const email = `secret.${unique()}@example.com`;
    const orderNumber = await placeOrder({ email });
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(`shopper.${unique()}@example.com`),
    });
    await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
    const customers = await t.db.kysely
      .selectFrom('customers')
      .select('email')
      .where('email', 'like', 'shopper.%')
      .execute();
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/sign-in',
        payload: { username: customers[0]!.email, password: REGISTRATION_PASSWORD },
      })
    ).json() as string;
    for (const url of [
      '/api/admin/customers',
      `/api/admin/customers?q=${email}`,
      `/api/admin/customers/ref/o${orderNumber}`,
    ]) {
      for (const headers of [{}, { authorization: `Bearer ${token}` }, { cookie: `sid=${token}` }]) {
        const answer = await t.app.inject({ method: 'GET', url, headers });
        expect({ url, status: answer.statusCode }).toEqual({ url, status: 401 });
        expect(answer.body).not.toContain(email);
      }
    }
  });
});
