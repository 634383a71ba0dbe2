import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { commitResponseSchema } from '../../contract/basket.ts';
import { address, checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { csrfTokenForCookies } from '../../../test/helpers/csrf.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { decodeFields, decryptCrypt, encodeFields, encryptCrypt } from './opayo-crypt.ts';
import { findPaymentOrder } from '../orders/order-payments.ts';
import { newVendorTxCode, opayoRequestCrypt, opayoRequestFields, type OrderForOpayo } from './opayo.ts';

/**
 * Opayo's Form protocol uses the encryption password as both AES key and IV, and every request
 * Crypt starts with the known block `VendorTxCode=RAA`. If the return URL answers a Crypt with bad
 * padding differently from one that decrypts, a CBC padding oracle recovers the intermediate state
 * of that first block, which XORed with the known text is the password; with the password anyone
 * can forge a `Status=OK` return. This suite runs that attack, as an outsider would, against the
 * shop's own return URL (docs/decisions/0008-opayo-return-crypt.md).
 */

const BLOCK = 16;
const KNOWN_FIRST_BLOCK = Buffer.from('VendorTxCode=RAA', 'latin1');

/**
 * Everything a client sees of an answer, except what differs on every request whatever was sent:
 * the request id, the date, and the rate limit's countdown.
 */
const varyPerRequest = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
function fingerprint(answer: LightMyRequestResponse): string {
  const headers = Object.entries(answer.headers)
    .filter(([name]) => !varyPerRequest.has(name))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([answer.statusCode, headers, answer.body]);
}

interface AttackResult {
  /** The password the attack settled on (a guess where the oracle told it nothing). */
  key: Buffer;
  requests: number;
  /** How many different answers the server gave across the whole attack. */
  distinctAnswers: Set<string>;
  /** Bytes for which one guess was answered differently from the rest. */
  bytesLearned: number;
}

/**
 * The textbook attack on one block: send `R || C1` and vary R's bytes from the last; a guess whose
 * answer differs from the answer to garbage had valid padding, which gives a byte of D(C1). Where
 * no guess stands out the attacker keeps going with a guess of its own, so the server sees all
 * 16 x 256 probes an attacker would spend.
 */
async function paddingOracleAttack(
  ask: (crypt: string) => Promise<LightMyRequestResponse>,
  firstCipherBlock: Buffer,
): Promise<AttackResult> {
  const distinctAnswers = new Set<string>();
  let requests = 0;
  const probe = async (prefix: Buffer) => {
    requests++;
    const answer = fingerprint(
      await ask(`@${Buffer.concat([prefix, firstCipherBlock]).toString('hex').toUpperCase()}`),
    );
    distinctAnswers.add(answer);
    return answer;
  };
  // What the server says to a Crypt that almost surely does not decrypt: the attack's baseline.
  const garbage = await probe(Buffer.alloc(BLOCK, 0xa5));
  const intermediate = Buffer.alloc(BLOCK);
  let bytesLearned = 0;
  for (let position = BLOCK - 1; position >= 0; position--) {
    const pad = BLOCK - position;
    const prefix = Buffer.alloc(BLOCK, 0x3c);
    for (let later = position + 1; later < BLOCK; later++) prefix[later] = intermediate[later]! ^ pad;
    let found: number | undefined;
    for (let guess = 0; guess < 256; guess++) {
      prefix[position] = guess;
      if ((await probe(prefix)) === garbage) continue;
      if (position === BLOCK - 1) {
        // Rule out a longer padding that happened to be valid: change the byte before and ask again.
        const check = Buffer.from(prefix);
        check[position - 1] = check[position - 1]! ^ 0xff;
        if ((await probe(check)) === garbage) continue;
      }
      found = guess;
      break;
    }
    if (found !== undefined) bytesLearned++;
    intermediate[position] = (found ?? 0) ^ pad;
  }
  const key = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) key[i] = intermediate[i]! ^ KNOWN_FIRST_BLOCK[i]!;
  return { key, requests, distinctAnswers, bytesLearned };
}

describe('the Opayo return against a padding-oracle attack', () => {
  let t: TestApp;
  let order: { orderNumber: number; orderCode: string; total: string; crypt: string };
  beforeAll(async () => {
    // The limit is raised for the attack so that it can spend its thousands of requests; the next
    // suite shows the limit itself.
    t = await createTestApp({ env: { PAYMENT_PROVIDER: 'opayo', RATE_LIMIT_FACTOR: '1000' } });
    order = await attackersOwnOrder(t);
  });
  afterAll(() => t.close());

  it('learns nothing from thousands of probes, and its forged OK return pays nothing', async () => {
    const server = t.server;
    const firstBlock = Buffer.from(order.crypt.slice(1, 1 + BLOCK * 2), 'hex');
    const attack = await paddingOracleAttack((crypt) => returnWith(server, crypt), firstBlock);
    const forged = encryptCrypt(
      encodeFields([
        ['VendorTxCode', `RAAG-${order.orderNumber}-0123456789ab`],
        ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
        ['Status', 'OK'],
        ['TxAuthNo', '1'],
        ['Amount', order.total],
      ]),
      attack.key.toString('latin1'),
    );
    const answer = await returnWith(server, forged);
    const row = await t.db.kysely
      .selectFrom('orders')
      .select(['status', 'transaction_id'])
      .where('order_number', '=', order.orderNumber)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending_payment', transaction_id: null });
    expect(fingerprint(answer)).toBe([...attack.distinctAnswers][0]);
    expect(attack.requests).toBeGreaterThan(4000);
    expect(attack.bytesLearned).toBe(0);
    expect(attack.distinctAnswers.size).toBe(1);
    expect(attack.key.equals(Buffer.from(t.config.opayo.encryptionPassword, 'latin1'))).toBe(false);
    // Over 4,000 requests: a give-up bound for a busy machine (46 s was seen), not a speed target.
  }, 180_000);

  it('gives one answer to garbage, a Crypt for no order, a wrong amount and a real payment', async () => {
    const password = t.config.opayo.encryptionPassword;
    const vendorTxCode = decodeFields(decryptCrypt(order.crypt, password)).VendorTxCode!;
    const crypts = [
      '@ZZZZ',
      '@' + 'AB'.repeat(32),
      encryptCrypt('Status=OK', 'AnotherPassword1'),
      encryptCrypt(
        encodeFields([
          ['VendorTxCode', 'RAAG-99999999-0123456789ab'],
          ['Status', 'OK'],
          ['Amount', order.total],
        ]),
        password,
      ),
      encryptCrypt(
        encodeFields([
          ['VendorTxCode', vendorTxCode],
          ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
          ['Status', 'OK'],
          ['Amount', '0.01'],
        ]),
        password,
      ),
    ];
    const realVpsTxId = `{${randomUUID().toUpperCase()}}`;
    const real = encryptCrypt(
      encodeFields([
        ['VendorTxCode', vendorTxCode],
        ['VPSTxId', realVpsTxId],
        ['Status', 'OK'],
        ['TxAuthNo', '42'],
        ['Amount', order.total],
      ]),
      password,
    );
    const answers = [];
    for (const crypt of crypts) answers.push(fingerprint(await returnWith(t.server, crypt)));
    // None of the forgeries, the wrong amount among them, paid the order.
    expect(await statusOf(t, order.orderNumber)).toBe('pending_payment');
    answers.push(fingerprint(await returnWith(t.server, real)));
    expect(new Set(answers).size).toBe(1);
    const paidBy = await t.db.kysely
      .selectFrom('orders')
      .select('transaction_id')
      .where('order_number', '=', order.orderNumber)
      .executeTakeFirstOrThrow();
    expect(paidBy.transaction_id).toBe(realVpsTxId);
    const first = await returnWith(t.server, crypts[0]!);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/checkout-confirm');
    expect(await statusOf(t, order.orderNumber)).toBe('paid');
  });
});

describe('the Opayo return against a forged change to a real answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENT_PROVIDER: 'opayo', RATE_LIMIT_FACTOR: '100' } });
  });
  afterAll(() => t.close());

  /**
   * The Crypt has no MAC, so CBC lets anyone who knows a block's text rewrite it by flipping bits in
   * the block before (which turns to noise). A shopper whose card was declined knows almost all of
   * the answer's text, so they can try to turn it into `Status=OK`: here, at every block after the
   * VPSTxId, a block is rewritten to add a second `Status=OK`.
   */
  it('pays nothing for a declined answer whose blocks were rewritten to say OK', async () => {
    const order = await attackersOwnOrder(t);
    const password = t.config.opayo.encryptionPassword;
    const vendorTxCode = decodeFields(decryptCrypt(order.crypt, password)).VendorTxCode!;
    const declined = encodeFields([
      ['VendorTxCode', vendorTxCode],
      ['VPSTxId', '{6D1C9E1A-3B49-4F0B-9C6E-2F7A5D8B1E44}'],
      ['Status', 'NOTAUTHED'],
      ['StatusDetail', '2000 : The Authorisation was Declined by the bank.'],
      ['AVSCV2', 'NO DATA MATCHES'],
      ['AddressResult', 'MATCHED'],
      ['PostCodeResult', 'MATCHED'],
      ['CV2Result', 'MATCHED'],
      ['GiftAid', '0'],
      ['3DSecureStatus', 'NOTCHECKED'],
      ['CardType', 'VISA'],
      ['Last4Digits', '0002'],
      ['Amount', order.total],
    ]);
    const cipher = Buffer.from(encryptCrypt(declined, password).slice(1), 'hex');
    const plain = Buffer.from(declined, 'latin1');
    const knownFrom = declined.indexOf('&Status=');
    const amountAt = declined.indexOf('&Amount=');
    const injected = Buffer.from('&Status=OK&Note=', 'latin1');
    let tries = 0;
    for (let block = Math.ceil(knownFrom / BLOCK) + 1; (block + 1) * BLOCK <= amountAt; block++) {
      const forged = Buffer.from(cipher);
      for (let i = 0; i < BLOCK; i++) {
        forged[(block - 1) * BLOCK + i] = forged[(block - 1) * BLOCK + i]! ^ plain[block * BLOCK + i]! ^ injected[i]!;
      }
      await returnWith(t.server, `@${forged.toString('hex').toUpperCase()}`);
      tries++;
    }
    expect(tries).toBeGreaterThan(3);
    expect(await statusOf(t, order.orderNumber)).toBe('pending_payment');
  });
});

describe("the Opayo return against the shopper's own request Crypt rewritten to say OK", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENT_PROVIDER: 'opayo', RATE_LIMIT_FACTOR: '100' } });
  });
  afterAll(() => t.close());

  /**
   * Opayo encrypts the request and its answer with one key, and the shop hands every shopper the
   * request Crypt for their own order, whose text they know: it holds their own name and address, and
   * already the order's VendorTxCode and Amount. An outside attack ended the billing address with
   * `xStatus=OKxVPSTxId={GUID}` and flipped the bytes above each `x` to make it `&`; the block before
   * turns to noise inside the address, readable about once in 150 fresh Crypts. Each Crypt here is
   * the one sagepay-config hands out (a fresh VendorTxCode each time), made in the test so that it
   * needs no hundreds of calls; only the lucky one is sent.
   */
  it('pays nothing for a request Crypt whose address was flipped into Status=OK', async () => {
    const password = t.config.opayo.encryptionPassword;
    const fx = await checkoutFixtures(t.db);
    const product = await fx.product(2500, 5);
    const injected = 'xStatus=OKxVPSTxId={6D1C9E1A-3B49-4F0B-9C6E-2F7A5D8B1E44}';
    const commit = async (line1: string) => {
      const committed = await t.app.inject({
        method: 'POST',
        url: '/api/basket',
        payload: commitBody([{ productStockId: product.stockId, requestedQty: 1 }], {
          billingAddress: { ...address, line1 },
        }),
      });
      const result = commitResponseSchema.parse(committed.json());
      if (!result.ok) throw new Error('expected an order');
      const order = await findPaymentOrder(t.db.kysely, { orderNumber: result.orderNumber });
      if (!order) throw new Error('expected the order');
      return { result, order };
    };
    // The request as the shop wrote it before it kept `=` out of a shopper's text: the address as typed.
    const requestFields = (order: OrderForOpayo) =>
      opayoRequestFields(order, {
        vendorTxCode: newVendorTxCode(order.order_number),
        publicUrl: t.config.publicUrl,
        shopName: t.config.shop.name,
      }).map(([name, value]): [string, string] =>
        name === 'BillingAddress1' ? [name, order.billing_line1] : [name, value],
      );
    const layout = (order: OrderForOpayo) => encodeFields(requestFields(order));
    // The attacker pads the address so that `xStatus=OKxVPSTx` is one block of its own.
    const first = await commit(`12 Market St ${injected}`);
    const shift = (BLOCK - (layout(first.order).indexOf('xStatus') % BLOCK)) % BLOCK;
    const { result, order } = await commit(`12 Market St ${'a'.repeat(shift)}${injected}`);
    expect(layout(order).indexOf('xStatus') % BLOCK).toBe(0);
    const requestText = (crypt: string) => decryptCrypt(crypt, password);
    const freshRequest = () => opayoRequestCrypt(requestFields(order), password);

    // Today the address cannot spell a field: the Crypt handed out has no `=` of the shopper's.
    const handed = await t.app.inject({
      method: 'GET',
      url: `/api/sagepay-config/${result.orderNumber}?code=${result.orderCode}`,
    });
    const handedText = requestText(handed.json<{ crypt: string }>().crypt);
    expect(handedText).toContain('xStatus-OKxVPSTxId-{6D1C9E1A');
    // Otherwise the same text, but for the VendorTxCode's random part.
    const sameButCode = (text: string) => text.replace(/RAAG-\d+-[0-9a-f]{12}/, 'RAAG-code').replace(/=/g, '-');
    expect(sameButCode(requestText(freshRequest()))).toBe(sameButCode(handedText));

    const plain = Buffer.from(requestText(freshRequest()), 'latin1');
    const flips = [plain.indexOf('xStatus=OK'), plain.indexOf('xVPSTxId=')];
    const noise = new Set(flips.map((at) => Math.floor(at / BLOCK) - 1));
    let forged: string | undefined;
    for (let tries = 0; tries < 20_000 && !forged; tries++) {
      const cipher = Buffer.from(freshRequest().slice(1), 'hex');
      for (const at of flips) cipher[at - BLOCK] = cipher[at - BLOCK]! ^ 'x'.charCodeAt(0) ^ '&'.charCodeAt(0);
      const crypt = `@${cipher.toString('hex').toUpperCase()}`;
      const text = Buffer.from(decryptCrypt(crypt, password), 'latin1');
      // The attacker cannot see this; it only sends every try. The test sends the one that reads.
      const readable = [...noise].every((block) =>
        /^[\u0020-\u0025\u0027-\u003c\u003e-\u007e\u00a0-\u00ff]{16}$/.test(
          text.subarray(block * BLOCK, (block + 1) * BLOCK).toString('latin1'),
        ),
      );
      if (readable) forged = crypt;
    }
    if (!forged) throw new Error('no readable forgery in 20,000 Crypts');
    expect(decryptCrypt(forged, password)).toContain('&Status=OK&VPSTxId={6D1C9E1A');

    await returnWith(t.server, forged);
    expect(await statusOf(t, result.orderNumber)).toBe('pending_payment');
  });
});

describe('the Opayo return rate limit', () => {
  it('stops one client after its limit, whatever it sends, and not another client', async () => {
    const t = await createTestApp({ env: { PAYMENT_PROVIDER: 'opayo' } });
    try {
      const ask = (remoteAddress: string) =>
        t.server.inject({
          method: 'GET',
          url: `/api/payments/opayo/return?crypt=${'@' + 'CD'.repeat(32)}`,
          remoteAddress,
        });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await ask('203.0.113.7')).statusCode);
      expect(statuses.filter((status) => status === 303).length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status === 303).length).toBeLessThanOrEqual(20);
      expect(statuses.at(-1)).toBe(429);
      expect((await ask('203.0.113.8')).statusCode).toBe(303);
    } finally {
      await t.close();
    }
  });
});

/** The token the shop gave the attacker's browser on an earlier page. */
const keptToken = csrfTokenForCookies(undefined);

function returnWith(app: FastifyInstance, crypt: string) {
  // The attacker keeps its cookies, as a browser would, so no new XSRF cookie is set each time.
  return app.inject({
    method: 'GET',
    url: `/api/payments/opayo/return?crypt=${encodeURIComponent(crypt)}`,
    headers: { cookie: `XSRF-TOKEN=${keptToken}` },
  });
}

/** The attacker's own order, and the request Crypt the shop hands it for the card page. */
async function attackersOwnOrder(t: TestApp) {
  const fx = await checkoutFixtures(t.db);
  const product = await fx.product(2500, 5);
  const committed = await t.app.inject({
    method: 'POST',
    url: '/api/basket',
    payload: commitBody([{ productStockId: product.stockId, requestedQty: 1 }]),
  });
  const result = commitResponseSchema.parse(committed.json());
  if (!result.ok) throw new Error('expected an order');
  const config = await t.app.inject({
    method: 'GET',
    url: `/api/sagepay-config/${result.orderNumber}?code=${result.orderCode}`,
  });
  const { crypt } = config.json<{ crypt: string }>();
  return { orderNumber: result.orderNumber, orderCode: result.orderCode, total: '34.95', crypt };
}

async function statusOf(t: TestApp, orderNumber: number): Promise<string> {
  const row = await t.db.kysely
    .selectFrom('orders')
    .select('status')
    .where('order_number', '=', orderNumber)
    .executeTakeFirstOrThrow();
  return row.status;
}
