import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Generated hostile input for the public endpoints (issue 7): wrong types, huge strings,
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
  beforeAll(async () => {
    // PayPal's validation answers at random, as a forged or a genuine notification would get.
    const paymentFetch = (async () => new Response(Math.random() < 0.5 ? 'VERIFIED' : 'INVALID')) as typeof fetch;
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

  it('answers generated PayPal notifications without a 5xx, and pays nothing without a matching order', async () => {
    const field = fc.constantFrom(
      'mc_gross',
      'invoice',
      'payment_status',
      'txn_id',
      'mc_currency',
      'receiver_email',
      'custom',
      'verify_sign',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.oneof(field, fc.string({ maxLength: 20 })), fc.string({ maxLength: 80 })),
        async (fields) => {
          const response = await post(
            '/api/payments/paypal/ipn',
            new URLSearchParams(fields).toString(),
            'application/x-www-form-urlencoded',
          );
          expect(response.statusCode, response.body).toBeLessThan(500);
        },
      ),
      { numRuns: runs },
    );
    const paid = await t.db.kysely.selectFrom('orders').select('id').where('status', '=', 'paid').execute();
    expect(paid).toEqual([]);
  });
});

/** A verified customer of the fuzzed shop, signed in: their bearer token. */
async function signedInCustomer(t: TestApp): Promise<string> {
  const password = 'Fuzzing-Password-2026';
  const email = 'fuzz.customer@example.com';
  await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { titleId: 1, email, firstname: 'Fuzz', lastname: 'Tester', password, confirm: password },
  });
  await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
  const signedIn = await t.app.inject({ method: 'POST', url: '/api/sign-in', payload: { username: email, password } });
  return signedIn.json() as string;
}
