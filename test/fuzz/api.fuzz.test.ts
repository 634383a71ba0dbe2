import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../src/contract/basket.ts';
import { penceToDecimal } from '../../src/contract/money.ts';
import { commitBody } from '../helpers/checkout-fixtures.ts';
import { registrationBody } from '../helpers/registration.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Generated hostile input for the public endpoints (docs/rules.md#security): wrong types, huge strings,
 * negative, zero and fractional numbers, injected price fields, __proto__ keys, malformed JSON and
 * wrong content types. Passing means no 5xx and no client-sent price accepted. FUZZ_RUNS sets the
 * number of cases per property: 1,000 by default (a quarter of that for the account bodies, whose
 * password hashing is slow): over 4,000 cases in every `npm test`.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 1000);

const anyValue = fc.oneof(
  fc.string({ maxLength: 300 }),
  // Any code point, NUL and lone surrogates included.
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
);
const item = fc.record(
  {
    productStockId: fc.oneof(fc.integer({ min: -5, max: 5000 }), anyValue),
    requestedQty: fc.oneof(fc.integer({ min: -3, max: 50 }), fc.double({ min: -2, max: 5 }), anyValue),
    price: fc.oneof(fc.integer({ min: 0, max: 5 }), anyValue),
    availableStock: anyValue,
  },
  { requiredKeys: [] },
);
const basketBody = fc.record(
  {
    items: fc.oneof(fc.array(item, { maxLength: 6 }), anyValue),
    guest: anyValue,
    billingAddress: anyValue,
    deliveryAddress: fc.oneof(
      anyValue,
      fc.record(
        { line1: fc.string(), postcode: fc.string(), townCity: fc.string(), countryId: anyValue },
        { requiredKeys: [] },
      ),
    ),
    deliveryMethodRateId: anyValue,
    voucherCodeAttempt: anyValue,
    appliedVouchers: anyValue,
    itemsTotal: anyValue,
    totalPriceIncludingDelivery: fc.oneof(fc.integer({ min: 0, max: 10 }), anyValue),
    discountAmount: anyValue,
  },
  { requiredKeys: [] },
);

describe('fuzzing the public API', () => {
  let t: TestApp;
  let lastVerdict = '';
  beforeAll(async () => {
    // PayPal's validation answers at random, as a forged or a genuine notification would get.
    const paymentFetch = (async () => {
      lastVerdict = Math.random() < 0.5 ? 'VERIFIED' : 'INVALID';
      return new Response(lastVerdict);
    }) as typeof fetch;
    t = await createTestApp({ demo: true, paymentFetch, env: { RATE_LIMIT_FACTOR: '1000' } });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

  it('answers generated basket, search and commit bodies without a 5xx, and never charges a sent price', async () => {
    await fc.assert(
      fc.asyncProperty(basketBody, async (body) => {
        for (const url of [
          '/api/verify-basket',
          '/api/search',
          '/api/basket',
          '/api/register',
          '/api/contact',
          '/api/sign-in',
        ]) {
          const response = await post(url, JSON.stringify(body));
          expect(response.statusCode, `${url} ${response.body}`).toBeLessThan(500);
          if (url === '/api/verify-basket' && response.statusCode === 200) {
            const basket = response.json() as { items: Array<{ price: number; productStockId: number }> };
            // The prices answered are the database's; a line never carries the price the client sent.
            for (const line of basket.items) expect(line.price).toBeGreaterThan(5);
          }
        }
      }),
      { numRuns: runs },
    );
  });

  it('answers malformed JSON, prototype keys and wrong content types with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.constant('{"__proto__":{"admin":true},"items":[]}'),
          fc.constant('{"constructor":{"prototype":{}}}'),
        ),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
        ),
        async (payload, contentType) => {
          for (const url of ['/api/verify-basket', '/api/search', '/api/basket']) {
            const response = await post(url, payload, contentType);
            expect(response.statusCode, `${url} ${response.body}`).toBeLessThan(500);
          }
        },
      ),
      { numRuns: runs },
    );
  });

  it('answers generated path parameters and query strings without a 5xx', async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.integer().map(String),
      fc.constantFrom('..', '%00', '-1', '1.5', '99999999999999999999', 'random'),
    );
    await fc.assert(
      fc.asyncProperty(segment, segment, async (a, b) => {
        const enc = (s: string) => encodeURIComponent(s);
        for (const url of [
          `/api/products/${enc(a)}`,
          `/api/products/${enc(a)}/${enc(b)}`,
          `/api/products/random/${enc(a)}/${enc(b)}`,
          `/api/products/random/brand/${enc(a)}/${enc(b)}`,
          `/api/product-stock?id=${enc(a)}&id=${enc(b)}`,
          `/api/offers/${enc(a)}`,
          `/api/delivery-methods/${enc(a)}/${enc(b)}`,
          `/api/recover-basket/${enc(a)}`,
          `/api/order-status/${enc(a)}`,
          `/api/sagepay-config/${enc(a)}?code=${enc(b)}`,
          `/api/payments/opayo/return?crypt=${enc(a)}`,
          `/api/payments/opayo/return?crypt=@${enc(b)}`,
          `/api/paypal-handoff/${enc(a)}`,
          `/products/${enc(a)}`,
        ]) {
          const response = await t.app.inject({ method: 'GET', url });
          expect(response.statusCode, `${url} ${response.body}`).toBeLessThan(500);
        }
      }),
      { numRuns: runs },
    );
  });

  const accountBody = fc.record(
    {
      titleId: anyValue,
      email: fc.oneof(fc.emailAddress(), anyValue),
      username: fc.oneof(fc.emailAddress(), anyValue),
      firstname: anyValue,
      lastname: anyValue,
      password: fc.oneof(fc.string({ minLength: 10, maxLength: 80 }), anyValue),
      confirm: anyValue,
      currentPassword: anyValue,
      newPassword: anyValue,
      token: fc.oneof(fc.base64String({ maxLength: 60 }), anyValue),
      contactNumber: anyValue,
      phone: anyValue,
      name: anyValue,
      message: anyValue,
      billingAddress: anyValue,
      deliveryAddress: anyValue,
    },
    { requiredKeys: [] },
  );

  it('answers generated account, contact and sign-in bodies without a 5xx, signed in or not', async () => {
    const signedIn = await signedInCustomer(t);
    await fc.assert(
      fc.asyncProperty(accountBody, fc.boolean(), async (body, withSession) => {
        const headers = withSession ? { authorization: `Bearer ${signedIn}` } : {};
        for (const [method, url] of [
          ['POST', '/api/register'],
          ['POST', '/api/activate'],
          ['POST', '/api/sign-in'],
          ['POST', '/api/forgot-password'],
          ['POST', '/api/reset-password'],
          ['POST', '/api/contact'],
          ['PUT', '/api/account'],
          ['POST', '/api/account/password'],
        ] as const) {
          const response = await t.app.inject({ method, url, payload: body, headers });
          expect(response.statusCode, `${method} ${url} ${response.body}`).toBeLessThan(500);
        }
      }),
      { numRuns: Math.ceil(runs / 4) },
    );
  });

  it('answers generated PayPal notifications without a 5xx, and pays an order only for a verified one that matches it', async () => {
    const business = t.config.paypal.businessEmail;
    const targets = await ordersToAttack(t, 3);
    const field = fc.constantFrom(
      'mc_gross',
      'invoice',
      'payment_status',
      'txn_id',
      'parent_txn_id',
      'mc_currency',
      'receiver_email',
      'custom',
      'verify_sign',
    );
    // Each part leans towards the value that pays, so that about one notification in ten should.
    const mostly = <T>(right: T, wrong: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(right), weight: 3 }, { arbitrary: wrong, weight: 1 });
    const notification = fc.record({
      target: fc.nat({ max: targets.length - 1 }),
      invoice: mostly('own', fc.oneof(fc.constant('other'), fc.string({ maxLength: 12 }))),
      status: mostly(
        'Completed',
        fc.constantFrom('completed', 'Pending', 'Failed', 'Denied', 'Refunded', 'Reversed', ''),
      ),
      gross: mostly(
        'exact',
        fc.oneof(
          fc.constantFrom('0.00', '-1.00', '0.01', '1e3', '34.9', ' 34.95', '99999999.99'),
          fc.string({ maxLength: 10 }),
        ),
      ),
      currency: mostly('GBP', fc.constantFrom('gbp', 'USD', '')),
      receiver: mostly(business, fc.constantFrom(business.toUpperCase(), 'attacker@example.com', '')),
      txn: mostly('TXN', fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Z0-9]{1,12}$/))),
      junk: fc.dictionary(fc.oneof(field, fc.string({ maxLength: 20 })), fc.string({ maxLength: 80 }), { maxKeys: 4 }),
    });
    let paidRuns = 0;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(notification, async (n) => {
        // Every order awaits its payment again (also after a failed run, as fast-check shrinks it).
        await t.db.kysely
          .updateTable('orders')
          .set({ status: 'pending_payment', transaction_id: null, payment_status: null, paid_at: null })
          .where(
            'id',
            'in',
            targets.map((target) => target.id),
          )
          .execute();
        const order = targets[n.target]!;
        const other = targets[(n.target + 1) % targets.length]!;
        const txn = n.txn ? `${n.txn}R${++run}` : '';
        const fields: Record<string, string> = {
          ...n.junk,
          invoice:
            n.invoice === 'own'
              ? String(order.orderNumber)
              : n.invoice === 'other'
                ? String(other.orderNumber)
                : n.invoice,
          payment_status: n.status,
          mc_gross: n.gross === 'exact' ? order.total : n.gross,
          mc_currency: n.currency,
          receiver_email: n.receiver,
          txn_id: txn,
        };
        const response = await post(
          '/api/payments/paypal/ipn',
          new URLSearchParams(fields).toString(),
          'application/x-www-form-urlencoded',
        );
        expect(response.statusCode, response.body).toBeLessThan(500);
        // The rule, from docs/rules.md#payments: only this combination pays, and only the named order.
        const shouldPay =
          lastVerdict === 'VERIFIED' &&
          n.status === 'Completed' &&
          n.receiver.toLowerCase() === business.toLowerCase() &&
          n.currency === 'GBP' &&
          txn !== '' &&
          n.gross === 'exact' &&
          n.invoice === 'own';
        const rows = await t.db.kysely
          .selectFrom('orders')
          .select(['id', 'status', 'refunded_total'])
          .where(
            'id',
            'in',
            targets.map((target) => target.id),
          )
          .execute();
        if (shouldPay) paidRuns++;
        for (const row of rows) {
          expect(row.status === 'paid', `${JSON.stringify(fields)} (${lastVerdict})`).toBe(
            shouldPay && row.id === order.id,
          );
          expect(row.refunded_total).toBe(0);
        }
      }),
      { numRuns: runs },
    );
    // The notifications that should pay did come up, so the rule was tested both ways.
    expect(paidRuns).toBeGreaterThan(runs / 50);
  });
});

/** Unpaid orders in the fuzzed shop, for the notifications to aim at: ids, numbers and totals. */
async function ordersToAttack(t: TestApp, count: number) {
  const stock = await t.db.kysely
    .selectFrom('product_stocks')
    .select('id')
    .where('stock', '>=', (count * (count + 1)) / 2)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const orders = [];
  for (let i = 0; i < count; i++) {
    // One more of the product in each order, so no two orders have the same total.
    const items = [{ productStockId: stock.id, requestedQty: i + 1 }];
    const priced = (await t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: { items } })).json<{
      itemsTotal: number;
    }>();
    const methods = (await t.app.inject({ method: 'GET', url: `/api/delivery-methods/1/${priced.itemsTotal}` })).json<
      Array<{ id: number }>
    >();
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody(items, { deliveryMethodRateId: methods[0]!.id }),
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error('expected an order to attack');
    const row = await t.db.kysely
      .selectFrom('orders')
      .select(['id', 'order_number', 'total_including_delivery'])
      .where('order_code', '=', result.orderCode)
      .executeTakeFirstOrThrow();
    orders.push({ id: row.id, orderNumber: row.order_number, total: penceToDecimal(row.total_including_delivery) });
  }
  return orders;
}

/** A verified customer of the fuzzed shop, signed in: their bearer token. */
async function signedInCustomer(t: TestApp): Promise<string> {
  const password = 'Fuzzing-Password-2026';
  const email = 'fuzz.customer@example.com';
  await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: registrationBody(email, { titleId: 1, firstname: 'Fuzz', lastname: 'Tester', password }),
  });
  await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
  const signedIn = await t.app.inject({ method: 'POST', url: '/api/sign-in', payload: { username: email, password } });
  return signedIn.json() as string;
}
