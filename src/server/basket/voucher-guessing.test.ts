import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * docs/rules.md#limits-on-one-client: a voucher code can enter the shop three ways (a new attempt, an applied
 * voucher the basket carries, and the order's commit), and each answer shows whether the code
 * applies. Every way counts toward one limit per client: 20 checks of a code a minute.
 */
const LIMIT = 20;

describe('voucher guessing', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let stockId: number;
  let realCode: string;
  beforeAll(async () => {
    t = await createTestApp();
    fx = await checkoutFixtures(t.db);
    stockId = (await fx.product(2500, 1000)).stockId;
    realCode = await fx.voucher({ kind: 'percent', amount: 10 });
  });
  afterAll(() => t.close());

  const items = () => [{ productStockId: stockId, requestedQty: 1 }];
  const verify = (remoteAddress: string, body: object) =>
    t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: { items: items(), ...body }, remoteAddress });
  const commit = (remoteAddress: string, code: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody(items(), { appliedVouchers: [{ code }] }),
      remoteAddress,
    });
  const applied = (answer: LightMyRequestResponse) =>
    answer.statusCode === 200 && (answer.json<{ appliedVouchers: unknown[] }>().appliedVouchers?.length ?? 0) > 0;

  it('stops guesses sent as an applied voucher, and never tells whether the real code applies after the limit', async () => {
    const ip = '198.51.100.61';
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 60; i++) {
      const code = i === 45 ? realCode : `GUESS${i}`;
      answers.push(await verify(ip, { appliedVouchers: [{ code }] }));
    }
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.slice(0, LIMIT).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(LIMIT).every((status) => status === 429)).toBe(true);
    expect(applied(answers[45]!)).toBe(false);
    expect(answers[45]!.json()).toMatchObject({ error: { code: 'TOO_MANY_REQUESTS' } });
  });

  it('counts attempts, applied vouchers and commits against one limit', async () => {
    const ip = '198.51.100.62';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await verify(ip, { voucherCodeAttempt: `TRY${i}` })).statusCode);
    for (let i = 0; i < 7; i++)
      statuses.push((await verify(ip, { appliedVouchers: [{ code: `APP${i}` }] })).statusCode);
    for (let i = 0; i < 6; i++) statuses.push((await commit(ip, `COMMIT${i}`)).statusCode);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await commit(ip, realCode)).statusCode).toBe(429);
    expect((await verify(ip, { voucherCodeAttempt: realCode })).statusCode).toBe(429);
    expect((await verify(ip, { appliedVouchers: [{ code: realCode }] })).statusCode).toBe(429);
  });

  it('keeps checking baskets without a code, and other clients, while one client is stopped', async () => {
    const ip = '198.51.100.63';
    for (let i = 0; i < LIMIT; i++) await verify(ip, { voucherCodeAttempt: `X${i}` });
    expect((await verify(ip, { voucherCodeAttempt: realCode })).statusCode).toBe(429);
    for (let i = 0; i < 25; i++) expect((await verify(ip, {})).statusCode).toBe(200);
    const other = await verify('198.51.100.64', { voucherCodeAttempt: realCode });
    expect(other.statusCode).toBe(200);
    expect(applied(other)).toBe(true);
  });
});
