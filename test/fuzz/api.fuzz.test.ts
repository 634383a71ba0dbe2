import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Generated hostile input for the public endpoints (issue 7): wrong types, huge strings,
 * negative, zero and fractional numbers, injected price fields, __proto__ keys, malformed JSON and
 * wrong content types. Passing means no 5xx and no client-sent price accepted. FUZZ_RUNS sets the
 * number of cases per property: 1,000 by default (3,000 cases in all, in every `npm test`).
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
    t = await createTestApp({ demo: true, env: { RATE_LIMIT_FACTOR: '1000' } });
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
});
