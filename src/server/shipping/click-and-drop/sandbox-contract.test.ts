import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkoutFixtures } from '../../../../test/helpers/checkout-fixtures.ts';
import { paidGuestOrder } from '../../../../test/helpers/paid-orders.ts';
import { staffMember } from '../../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { CLICK_AND_DROP_SANDBOX_PATH } from '../shipping.feature.ts';

/**
 * The local Click & Drop sandbox held to Royal Mail's published API document
 * (test/fixtures/click-and-drop/SOURCE.md): every answer the shop's calls can get, and every request
 * the shop's client sends, is checked against the document's own definitions.
 */
const documentPath = new URL('../../../../test/fixtures/click-and-drop/click-and-drop-api-v1.yaml', import.meta.url);
const document = parse(readFileSync(documentPath, 'utf8')) as {
  swagger: string;
  basePath: string;
  paths: Record<string, unknown>;
};

// The document's money is `multipleOf: 0.01`, which binary fractions (4.95) miss without a tolerance.
const ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 9 });
addFormats.default(ajv);
// Swagger 2.0's numeric formats say how wide a number is, which JSON's numbers do not check.
for (const format of ['int32', 'int64', 'float', 'double', 'decimal']) ajv.addFormat(format, true);
ajv.addSchema({ ...document, $id: 'click-and-drop' });
const definition = (name: string) => {
  const validate = ajv.getSchema(`click-and-drop#/definitions/${name}`);
  if (!validate) throw new Error(`the document defines no ${name}`);
  return (value: unknown) => {
    const valid = validate(value);
    return valid ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
};

describe("the Click & Drop sandbox against Royal Mail's document", () => {
  let t: TestApp;
  let cookie: string;
  let time = Date.parse('2026-11-28T10:00:00.000Z');
  const calls: Array<{ method: string; path: string; body: unknown; status: number; answer: unknown }> = [];
  const key = () => t.config.clickAndDrop.apiKey;
  const sandbox = (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { payload?: object; authorization?: string } = {},
  ) => {
    // A second of its own for each look, so the rate limit is not what is met.
    time += 1000;
    return t.app.inject({
      method,
      url: `${CLICK_AND_DROP_SANDBOX_PATH}${path}`,
      headers: { authorization: options.authorization ?? `Bearer ${key()}` },
      ...(options.payload ? { payload: options.payload } : {}),
    });
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_FACTOR: '100' },
      labels: {
        now: () => time,
        sleep: async (ms) => {
          time += ms;
        },
        wrapFetch: (inner) =>
          (async (input: string | URL | Request, init?: RequestInit) => {
            const answer = await inner(input, init);
            const copy = answer.clone();
            calls.push({
              method: init?.method ?? 'GET',
              path: new URL(String(input)).pathname.replace(CLICK_AND_DROP_SANDBOX_PATH, ''),
              body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
              status: answer.status,
              answer: copy.headers.get('content-type')?.includes('json') ? await copy.json() : await copy.arrayBuffer(),
            });
            return answer;
          }) as typeof fetch,
      },
    });
    const fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
    await t.db.kysely
      .updateTable('delivery_methods')
      .set({ carrier_service: 'tracked24', package_format: 'parcel' })
      .execute();
    const ids = [];
    for (const [i, postcode] of ['LS1 4DY', 'ZZ9 9ZZ'].entries()) {
      const product = await fx.product(3200, 5);
      await t.db.kysely
        .updateTable('product_stocks')
        .set({ weight_grams: 750, length_mm: 300, width_mm: 200, height_mm: 100 })
        .where('id', '=', product.stockId)
        .execute();
      const { row } = await paidGuestOrder(t, [{ stockId: product.stockId, quantity: 2 }], {
        email: `contract${i}@example.com`,
        remoteAddress: `10.40.0.${i + 1}`,
        provider: 'paypal',
        providerStatus: 'Completed',
        paidAt: new Date(time).toISOString(),
        extra: {
          deliveryAddress: {
            line1: '4 Park Row',
            line2: 'Flat 2',
            line3: '',
            postcode,
            townCity: 'Leeds',
            countryId: 1,
          },
        },
      });
      ids.push(row.id);
    }
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/labels',
      headers: { cookie },
      payload: { orderIds: ids },
    });
    expect(made.statusCode, made.body).toBe(200);
  });
  afterAll(() => t.close());

  it('is a valid Swagger 2.0 document whose paths hold the calls the shop makes', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.basePath).toBe('/api/v1');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/orders', '/orders/{orderIdentifiers}', '/orders/{orderIdentifiers}/label']),
    );
  });

  it("sends CreateOrdersRequest and is answered CreateOrdersResponse, a refused order's errors with it", () => {
    const create = calls.find((call) => call.method === 'POST' && call.path === '/orders')!;
    expect(definition('CreateOrdersRequest')(create.body)).toEqual([]);
    expect(create.status).toBe(200);
    expect(definition('CreateOrdersResponse')(create.answer)).toEqual([]);
    const answer = create.answer as { createdOrders: unknown[]; failedOrders: Array<{ errors: unknown[] }> };
    expect(answer.createdOrders).toHaveLength(1);
    expect(answer.failedOrders).toHaveLength(1);
    // Pounds as decimals, the parcel in grams and millimetres, as the document has them.
    expect((create.body as { items: Array<Record<string, unknown>> }).items[0]).toMatchObject({
      subtotal: 64,
      currencyCode: 'GBP',
      packages: [
        {
          weightInGrams: 1500,
          packageFormatIdentifier: 'parcel',
          dimensions: { heightInMms: 100, widthInMms: 200, depthInMms: 300 },
        },
      ],
      postageDetails: { serviceCode: 'TOLP24' },
    });
  });

  it('answers GET /orders/{orderIdentifiers} with GetOrderInfoResource, found by identifier or quoted reference', async () => {
    const created = (calls[0]!.answer as { createdOrders: Array<{ orderIdentifier: number; orderReference: string }> })
      .createdOrders[0]!;
    for (const path of [
      `/orders/${created.orderIdentifier}`,
      `/orders/${encodeURIComponent(`"${created.orderReference}"`)}`,
    ]) {
      const answer = await sandbox('GET', path);
      expect(answer.statusCode).toBe(200);
      const body = answer.json() as unknown[];
      expect(body).toHaveLength(1);
      for (const order of body) expect(definition('GetOrderInfoResource')(order)).toEqual([]);
    }
  });

  it('draws each label as a PDF page with the address and the tracking number', async () => {
    const created = (calls[0]!.answer as { createdOrders: Array<{ orderIdentifier: number; trackingNumber: string }> })
      .createdOrders[0]!;
    const answer = await sandbox(
      'GET',
      `/orders/${created.orderIdentifier}/label?documentType=postageLabel&includeReturnsLabel=false`,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const pdf = await getDocumentProxy(new Uint8Array(answer.rawPayload));
    expect(pdf.numPages).toBe(1);
    const { text } = await extractText(pdf, { mergePages: true });
    for (const words of ['4 Park Row', 'Flat 2', 'Leeds', 'LS1 4DY', created.trackingNumber, 'NOT POSTAGE'])
      expect(text).toContain(words);
  });

  // Each call's own 400 body and every other answer are held to the document in sandbox.test.ts;
  // here, that the sandbox mounted in the shop answers the same, the shop's hooks in between.
  it('answers refusals in the bodies the document gives: 400, 401, 404 and the 429 with Retry-After', async () => {
    const refusals = [
      await sandbox('POST', '/orders', { payload: { items: [{ recipient: {} }] } }),
      await sandbox('GET', '/orders/1/label?includeReturnsLabel=false'),
      await sandbox('GET', '/orders/1000001/label?documentType=postageLabel'),
      await sandbox('GET', '/orders/not-a-number'),
      await sandbox('GET', '/orders/1', { authorization: 'Bearer wrong' }),
      await sandbox('GET', '/orders/1', { authorization: key() }),
      await sandbox('GET', '/orders/99999999'),
      await sandbox('GET', '/manifests'),
    ];
    expect(refusals.map((answer) => answer.statusCode)).toEqual([400, 400, 400, 400, 401, 401, 404, 404]);
    // POST /orders' 400 is an ErrorResponse; the GET calls' 400 an array of OrderErrorResponse.
    for (const answer of [refusals[0]!, ...refusals.slice(4)])
      expect(definition('ErrorResponse')(answer.json())).toEqual([]);
    for (const answer of refusals.slice(1, 4))
      for (const error of answer.json() as unknown[]) expect(definition('OrderErrorResponse')(error)).toEqual([]);
    expect(refusals[0]!.json().message).toMatch(/items\[0\]\.recipient\.address/);

    time += 1000;
    const burst = [];
    for (let i = 0; i < 4; i++)
      burst.push(
        await t.app.inject({
          method: 'GET',
          url: `${CLICK_AND_DROP_SANDBOX_PATH}/orders/1`,
          headers: { authorization: `Bearer ${key()}` },
        }),
      );
    const limited = burst.at(-1)!;
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(definition('ErrorResponse')(limited.json())).toEqual([]);
  });
});
