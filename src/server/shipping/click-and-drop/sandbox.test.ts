import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { orderIdentifiersOf, type CreateOrderRequest } from './api-types.ts';
import { clickAndDropSandboxRoutes, SANDBOX_CALLS_PER_SECOND } from './sandbox.routes.ts';

/**
 * The sandbox on its own (no shop, no database): every answer the shop's calls can get is held to
 * the response Royal Mail's document (test/fixtures/click-and-drop/SOURCE.md) gives for that path,
 * method and status. Where the document gives a status no body (401, 404) or does not list it
 * (the 429 its "Rate Limits" note promises), the body is held to its ErrorResponse, as ADR 0028
 * assumes.
 */

type Document = {
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
};
type Operation = { produces?: string[]; responses: Record<string, { schema?: { type?: string } }> };

const document = parse(
  readFileSync(new URL('../../../../test/fixtures/click-and-drop/click-and-drop-api-v1.yaml', import.meta.url), 'utf8'),
) as Document;
// Money is `multipleOf: 0.01`, which binary fractions miss without a tolerance.
const ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 9 });
addFormats.default(ajv);
// Swagger 2.0's numeric formats say how wide a number is, which JSON's numbers do not check.
for (const format of ['int32', 'int64', 'float', 'double', 'decimal']) ajv.addFormat(format, true);
ajv.addSchema({ ...document, $id: 'click-and-drop' });
const compiled = new Map<string, ValidateFunction>();
const validatorAt = (pointer: string) => {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `click-and-drop#${pointer.split('/').map(encodeURIComponent).join('/')}` });
    compiled.set(pointer, validate);
  }
  return validate;
};
const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** What is wrong with an answer, by the document's word for its path, method and status. */
function unlikeDocument(method: string, path: string, answer: LightMyRequestResponse): string[] {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) return [`the document has no ${method} ${path}`];
  const status = String(answer.statusCode);
  const response = operation.responses[status];
  if (!response) {
    const ratesNote = document.tags.find((tag) => tag.name === 'Rate Limits')?.description ?? '';
    if (!(status === '429' && ratesNote.includes('429')))
      return [`the document lists no ${status} for ${method} ${path}`];
  }
  if (response?.schema?.type === 'file') {
    const type = String(answer.headers['content-type']);
    const problems = [];
    if (!(operation.produces ?? []).includes(type)) problems.push(`${type} is not among ${operation.produces}`);
    if (!answer.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-'))) problems.push('the file is not a PDF');
    return problems;
  }
  const validate = response?.schema
    ? validatorAt(`/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/schema`)
    : validatorAt('/definitions/ErrorResponse');
  if (!String(answer.headers['content-type']).startsWith('application/json')) return ['the answer is not JSON'];
  return validate(answer.json())
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

const KEY = 'sandbox-test-key';
const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A sandbox of its own, with a clock the test moves; each call a second later unless told. */
async function sandbox(options: { maxOrders?: number } = {}) {
  let time = Date.parse('2026-11-28T10:00:00.000Z');
  const app = Fastify();
  apps.push(app);
  await app.register(clickAndDropSandboxRoutes, { apiKey: KEY, now: () => time, ...options });
  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { payload?: unknown; authorization?: string | null; sameSecond?: boolean; documentPath?: string } = {},
  ) => {
    if (!options.sameSecond) time += 1000;
    const headers: Record<string, string> = {};
    if (options.authorization !== null) headers.authorization = options.authorization ?? `Bearer ${KEY}`;
    const answer = await app.inject({
      method,
      url: path,
      headers,
      ...(options.payload === undefined
        ? {}
        : typeof options.payload === 'string'
          ? { payload: options.payload, headers: { ...headers, 'content-type': 'application/json' } }
          : { payload: options.payload as object }),
    });
    const documentPath = options.documentPath ?? documentPathOf(path);
    expect(unlikeDocument(method, documentPath, answer), `${method} ${path} ${answer.statusCode}`).toEqual([]);
    return answer;
  };
  return {
    call,
    move: (ms: number) => {
      time += ms;
    },
  };
}

const documentPathOf = (path: string) =>
  path
    .split('?')[0]!
    .replace(/^\/orders\/[^/]+/, (match) => (match === '/orders' ? match : '/orders/{orderIdentifiers}'));

const order = (reference: string, postcode = 'LS1 4DY', overrides: Partial<CreateOrderRequest> = {}) => ({
  orderReference: reference,
  recipient: {
    address: {
      fullName: 'Ada Lovelace',
      addressLine1: '4 Park Row',
      addressLine2: 'Flat 2',
      city: 'Leeds',
      postcode,
      countryCode: 'GB',
    },
    emailAddress: 'ada@example.com',
  },
  packages: [{ weightInGrams: 750, packageFormatIdentifier: 'parcel' }],
  orderDate: '2026-11-28T09:00:00Z',
  subtotal: 64.95,
  shippingCostCharged: 4.95,
  total: 69.9,
  currencyCode: 'GBP',
  postageDetails: { serviceCode: 'TOLP24' },
  ...overrides,
});

const created = (answer: LightMyRequestResponse) =>
  answer.json().createdOrders as Array<{ orderIdentifier: number; orderReference: string; trackingNumber: string }>;

/** Royal Mail's S10 check digit over a tracking number's eight digits. */
function checkDigitOf(digits: string): number {
  const sum = [...digits].reduce((total, digit, i) => total + Number(digit) * [8, 6, 4, 2, 3, 5, 9, 7][i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

describe('the Click & Drop sandbox', () => {
  it("sends requests the document's CreateOrdersRequest allows", () => {
    const validate = validatorAt('/definitions/CreateOrdersRequest');
    expect(validate({ items: [order('R-1')] }), JSON.stringify(validate.errors)).toBe(true);
  });

  it('makes the deliverable orders of a batch and refuses the others, each with its reason', async () => {
    const { call } = await sandbox();
    const answer = await call('POST', '/orders', {
      payload: { items: [order('R-1'), order('R-2', 'ZZ9 9ZZ'), order('R-3', 'NOT A CODE'), order('R-4', 'sw1a 1aa')] },
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ successCount: 2, errorsCount: 2 });
    expect(created(answer).map((one) => one.orderReference)).toEqual(['R-1', 'R-4']);
    for (const one of created(answer)) {
      expect(one.orderIdentifier).toBeGreaterThan(0);
      expect(one.trackingNumber).toMatch(/^[A-Z]{2}\d{9}GB$/);
      expect(Number(one.trackingNumber[10])).toBe(checkDigitOf(one.trackingNumber.slice(2, 10)));
    }
    expect(new Set(created(answer).map((one) => one.orderIdentifier)).size).toBe(2);
    const failed = body.failedOrders as Array<{
      order: { orderReference: string };
      errors: Array<{ errorMessage: string }>;
    }>;
    expect(failed.map((one) => one.order.orderReference)).toEqual(['R-2', 'R-3']);
    expect(failed[0]!.errors[0]!.errorMessage).toMatch(/postcode "ZZ9 9ZZ"/);
    expect(failed[1]!.errors[0]!.errorMessage).toMatch(/postcode "NOT A CODE"/);
  });

  it('refuses a service the account does not have as a failed order', async () => {
    const { call } = await sandbox();
    const answer = await call('POST', '/orders', {
      payload: { items: [order('R-1', 'LS1 4DY', { postageDetails: { serviceCode: 'NOPE' } })] },
    });
    expect(answer.json().failedOrders[0].errors[0]).toMatchObject({
      errorMessage: expect.stringMatching(/service code "NOPE"/),
      fields: [{ fieldName: 'postageDetails.serviceCode', value: 'NOPE' }],
    });
  });

  it('answers an orderReference it holds with the order it made, never a second', async () => {
    const { call } = await sandbox();
    const first = created(await call('POST', '/orders', { payload: { items: [order('R-1')] } }))[0]!;
    const again = await call('POST', '/orders', { payload: { items: [order('R-1'), order('R-2'), order('R-2')] } });
    const [repeat, second, secondAgain] = created(again);
    expect(repeat).toEqual(
      expect.objectContaining({ orderIdentifier: first.orderIdentifier, trackingNumber: first.trackingNumber }),
    );
    expect(secondAgain!.orderIdentifier).toBe(second!.orderIdentifier);
    const held = await call('GET', `/orders/${orderIdentifiersOf([{ reference: 'R-1' }, { reference: 'R-2' }])}`);
    expect(held.json()).toHaveLength(2);
  });

  it('finds orders by identifier and by quoted, percent-encoded reference, a ";" in one too', async () => {
    const { call } = await sandbox();
    const [a, b] = created(await call('POST', '/orders', { payload: { items: [order('A;1'), order('B"2')] } }));
    const byBoth = await call(
      'GET',
      `/orders/${orderIdentifiersOf([a!.orderIdentifier, { reference: 'B"2' }, { reference: 'A;1' }])}`,
    );
    expect(byBoth.statusCode).toBe(200);
    // Each once, in the order first named.
    expect(byBoth.json().map((one: { orderIdentifier: number }) => one.orderIdentifier)).toEqual([
      a!.orderIdentifier,
      b!.orderIdentifier,
    ]);
    // The document's own example: /orders/"ref";1001;...
    const raw = await call('GET', `/orders/"A%3B1";${b!.orderIdentifier}`);
    expect(raw.json()).toHaveLength(2);
    // Some held, some not: those held.
    expect((await call('GET', `/orders/${a!.orderIdentifier};999`)).json()).toHaveLength(1);
    expect((await call('GET', '/orders/999;"nobody"')).statusCode).toBe(404);
  });

  it('answers a request it cannot read 400, in the body the document gives each call', async () => {
    const { call } = await sandbox();
    const missing = await call('POST', '/orders', { payload: { items: [{ recipient: {} }] } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/items\[0\]\.recipient\.address/);
    const negative = await call('POST', '/orders', { payload: { items: [order('R-1', 'LS1 4DY', { subtotal: -1 })] } });
    expect(negative.json().message).toMatch(/items\[0\]\.subtotal/);
    const pennyFractions = await call('POST', '/orders', {
      payload: { items: [order('R-1', 'LS1 4DY', { total: 1.005 })] },
    });
    expect(pennyFractions.json().message).toMatch(/items\[0\]\.total/);
    const tooLong = await call('POST', '/orders', { payload: { items: [order('R'.repeat(41))] } });
    expect(tooLong.json().message).toMatch(/items\[0\]\.orderReference/);
    expect((await call('POST', '/orders', { payload: { items: [] } })).json().message).toMatch(/items/);
    expect((await call('POST', '/orders', { payload: '{"items": [' })).statusCode).toBe(400);

    const refusals = [
      await call('GET', '/orders/abc'),
      await call('GET', `/orders/${Array.from({ length: 101 }, (_, i) => i + 1).join(';')}`),
      await call('DELETE', '/orders/1;;2'),
      await call('GET', '/orders/1/label?includeReturnsLabel=false'),
      await call('GET', '/orders/1/label?documentType=postageLabel'),
      await call('GET', '/orders/1/label?documentType=somethingElse&includeReturnsLabel=false'),
    ];
    expect(refusals.map((answer) => answer.statusCode)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(refusals[1]!.json()[0].message).toMatch(/At most 100/);
    expect(refusals[4]!.json()[0].message).toMatch(/includeReturnsLabel/);
  });

  it('answers 401, with its error body, to a missing key, a wrong one, or the key without "Bearer "', async () => {
    const { call } = await sandbox();
    for (const authorization of [null, `Bearer ${KEY}x`, KEY, `bearer${KEY}`]) {
      const answers = [
        await call('POST', '/orders', { payload: { items: [order('R-1')] }, authorization }),
        await call('GET', '/orders/1', { authorization }),
        await call('DELETE', '/orders/1', { authorization }),
        await call('GET', '/orders/1/label?documentType=postageLabel&includeReturnsLabel=false', { authorization }),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401]);
    }
  });

  it('cancels with DELETE: DeleteOrdersResource names those deleted and, in errors, those it did not hold', async () => {
    const { call } = await sandbox();
    const [a, b] = created(await call('POST', '/orders', { payload: { items: [order('R-1'), order('R-2')] } }));
    const deleted = await call(
      'DELETE',
      `/orders/${a!.orderIdentifier};${orderIdentifiersOf([{ reference: 'R-2' }])};424242`,
    );
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({
      deletedOrders: [
        { orderIdentifier: a!.orderIdentifier, orderReference: 'R-1', orderInfo: 'Deleted' },
        { orderIdentifier: b!.orderIdentifier, orderReference: 'R-2', orderInfo: 'Deleted' },
      ],
      errors: [{ orderIdentifier: 424242, code: 'NotFound', message: 'The order 424242 was not found.' }],
    });
    // Gone: not found, not printed, not deleted twice; its reference may be used afresh.
    expect((await call('GET', `/orders/${a!.orderIdentifier}`)).statusCode).toBe(404);
    const label = await call(
      'GET',
      `/orders/${a!.orderIdentifier}/label?documentType=postageLabel&includeReturnsLabel=false`,
    );
    expect(label.statusCode).toBe(404);
    expect((await call('DELETE', `/orders/${a!.orderIdentifier}`)).statusCode).toBe(404);
    const remade = created(await call('POST', '/orders', { payload: { items: [order('R-1')] } }))[0]!;
    expect(remade.orderIdentifier).not.toBe(a!.orderIdentifier);
  });

  it('refuses a label call naming an order it does not hold, whole (404), and a path it does not have', async () => {
    const { call } = await sandbox();
    const [a] = created(await call('POST', '/orders', { payload: { items: [order('R-1')] } }));
    const label = await call(
      'GET',
      `/orders/${a!.orderIdentifier};777/label?documentType=postageLabel&includeReturnsLabel=false`,
    );
    expect(label.statusCode).toBe(404);
    expect(label.json().message).toMatch(/777/);
    const unknown = await call('GET', '/manifests/1', { documentPath: '/manifests/{manifestIdentifier}' });
    expect(unknown.statusCode).toBe(404);
  });

  it('draws one 4 x 6 inch page per order, in the order asked, with address, service and tracking number', async () => {
    const { call } = await sandbox();
    const [a, b] = created(
      await call('POST', '/orders', {
        payload: {
          items: [
            order('R-1'),
            order('R-2', 'SW1A 1AA', {
              recipient: {
                address: {
                  fullName: 'Alan Turing',
                  addressLine1: '2 Bletchley Road',
                  city: 'London',
                  postcode: 'SW1A 1AA',
                  countryCode: 'GB',
                },
              },
              postageDetails: { serviceCode: 'OLP2' },
            }),
          ],
        },
      }),
    );
    const answer = await call(
      'GET',
      `/orders/${b!.orderIdentifier};${a!.orderIdentifier}/label?documentType=postageLabel&includeReturnsLabel=false`,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const pages = pdfPages(answer.rawPayload);
    expect(pages.sizes).toEqual(['288 x 432 pts', '288 x 432 pts']);
    for (const words of ['Alan Turing', '2 Bletchley Road', 'London', 'SW1A 1AA', 'OLP2', b!.trackingNumber])
      expect(pages.text[0]).toContain(words);
    for (const words of [
      'Ada Lovelace',
      '4 Park Row',
      'Flat 2',
      'Leeds',
      'LS1 4DY',
      'TOLP24',
      a!.trackingNumber,
      'NOT POSTAGE',
    ])
      expect(pages.text[1]).toContain(words);
    // Printed: the order says when.
    expect(Date.parse((await call('GET', `/orders/${a!.orderIdentifier}`)).json()[0].printedOn)).toBeGreaterThan(0);
  });

  it('prints a hundred labels in one call, the most one path may name', async () => {
    const { call } = await sandbox();
    const references = Array.from({ length: 100 }, (_, i) => `SHOP-2026-${String(i).padStart(5, '0')}`);
    const made = await call('POST', '/orders', { payload: { items: references.map((reference) => order(reference)) } });
    const ids = created(made).map((one) => one.orderIdentifier);
    const byId = await call(
      'GET',
      `/orders/${orderIdentifiersOf(ids)}/label?documentType=postageLabel&includeReturnsLabel=false`,
    );
    expect(byId.statusCode).toBe(200);
    expect(pdfPages(byId.rawPayload).sizes).toHaveLength(100);
    const byReference = await call(
      'GET',
      `/orders/${orderIdentifiersOf(references.map((reference) => ({ reference })))}`,
    );
    expect(byReference.json()).toHaveLength(100);
  });

  it(`answers 429 past ${SANDBOX_CALLS_PER_SECOND} calls a second, with Retry-After and its error body, then again once the second is over`, async () => {
    const { call, move } = await sandbox();
    const burst = [];
    for (let i = 0; i <= SANDBOX_CALLS_PER_SECOND; i++)
      burst.push(await call('GET', '/orders/1', { sameSecond: i > 0 }));
    expect(burst.map((answer) => answer.statusCode)).toEqual([
      ...Array.from({ length: SANDBOX_CALLS_PER_SECOND }, () => 404),
      429,
    ]);
    const limited = burst.at(-1)!;
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json()).toMatchObject({ code: 'TooManyRequests', message: expect.stringMatching(/Rate limit/) });
    // Every call is counted, a create too; a key that is not the account's is not.
    expect((await call('POST', '/orders', { payload: { items: [order('R-1')] }, sameSecond: true })).statusCode).toBe(
      429,
    );
    expect((await call('GET', '/orders/1', { sameSecond: true, authorization: 'Bearer other' })).statusCode).toBe(401);
    move(999);
    expect((await call('GET', '/orders/1', { sameSecond: true })).statusCode).toBe(429);
    move(1);
    expect((await call('GET', '/orders/1', { sameSecond: true })).statusCode).toBe(404);
  });

  it('keeps at most its bound of orders, forgetting the oldest first', async () => {
    const { call } = await sandbox({ maxOrders: 3 });
    const made = await call('POST', '/orders', { payload: { items: ['A', 'B', 'C', 'D'].map((one) => order(one)) } });
    expect(made.json().successCount).toBe(4);
    const held = async (reference: string) =>
      (await call('GET', `/orders/${orderIdentifiersOf([{ reference }])}`)).statusCode;
    expect([await held('A'), await held('B'), await held('D')]).toEqual([404, 200, 200]);
  });

  it('numbers its orders afresh after a restart where the last start never did, so an old label is not found rather than another', async () => {
    // A walk-through: after a restart the sandbox gave new orders the numbers old labels held, and
    // downloading an old order's label printed another customer's address.
    const before = await sandbox();
    const old = created(await before.call('POST', '/orders', { payload: { items: [order('OLD')] } }))[0]!;
    const after = await sandbox();
    const fresh = created(await after.call('POST', '/orders', { payload: { items: [order('NEW')] } }))[0]!;
    expect(fresh.orderIdentifier).not.toBe(old.orderIdentifier);
    expect(fresh.trackingNumber).not.toBe(old.trackingNumber);
    expect(
      (
        await after.call(
          'GET',
          `/orders/${old.orderIdentifier}/label?documentType=postageLabel&includeReturnsLabel=false`,
        )
      ).statusCode,
    ).toBe(404);
  });
});

/** Each page's size and text, by poppler's pdfinfo and pdftotext. */
function pdfPages(pdf: Buffer): { sizes: string[]; text: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'candd-label-'));
  try {
    const file = join(dir, 'label.pdf');
    writeFileSync(file, pdf);
    const info = execFileSync('pdfinfo', ['-f', '1', '-l', '100', file], { encoding: 'utf8' });
    const sizes = [...info.matchAll(/^Page\s+\d+ size:\s+(.+?)(?: \(.*\))?$/gm)].map((match) => match[1]!.trim());
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .slice(0, sizes.length);
    return { sizes, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
