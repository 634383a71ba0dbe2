import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutFixtures, commitBody as looseCommitBody } from '../../../../test/helpers/checkout-fixtures.ts';
import { basketCommitSchema, basketRequestSchema } from '../../../contract/basket.ts';
import { createBasketService } from '../../basket/basket.service.ts';
import { createTestDb, type TestDatabase } from '../../../../test/helpers/test-db.ts';
import { isDatabaseUnavailable, type Db } from '../../db/database.ts';
import { BadRequestError, RefusedError } from '../../errors.ts';
import { PRICINGS_IN_THREAD, startCheckoutThread, type CheckoutThread } from './checkout-thread.ts';
import { describeError, rebuildError } from './thread-errors.ts';

/**
 * The checkout thread (docs/decisions/0020-checkout-first.md) answers a commit as the orders service
 * does in process: the order, a corrected basket, or the same refusal with its status, code and
 * field; and once stopped, a 503-class "try again shortly", never a lost answer.
 */
/** A commit as the route hands it on, validated by its schema. */
const commitBody = (...args: Parameters<typeof looseCommitBody>) => basketCommitSchema.parse(looseCommitBody(...args));

describe('commits in the checkout thread', () => {
  let db: Db;
  let database: TestDatabase;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let thread: CheckoutThread;
  const events: string[] = [];

  beforeAll(async () => {
    ({ db, database } = await createTestDb());
    fx = await checkoutFixtures(db);
    thread = startCheckoutThread(
      {
        databaseUrl: database.url,
        ...(database.pgSchema ? { pgSchema: database.pgSchema } : {}),
        poolSize: 2,
        reservationMinutes: 60,
        unpaidOrderLimits: { perEmail: 2, perClient: 10, unitsPerEmail: 20, unitsPerClient: 50 },
      },
      { onOrderEvent: (event) => events.push(event) },
    );
  });
  afterAll(async () => {
    await thread.close();
    await database.drop();
  });

  it('commits an order, which the database then holds, and tells of it', async () => {
    const p = await fx.product(2000, 5);
    const answer = await thread.commit(commitBody([{ productStockId: p.stockId, requestedQty: 2 }]), undefined, 'c1');
    expect(answer).toMatchObject({ ok: true, orderNumber: expect.any(Number), orderCode: expect.any(String) });
    if (!answer.ok) return;
    const row = await db.kysely
      .selectFrom('orders')
      .select('status')
      .where('order_number', '=', answer.orderNumber)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending_payment');
    expect(await fx.stockOf(p.stockId)).toBe(3);
    expect(events).toContain('created');
  });

  it('prices a basket exactly as the basket service does in process', async () => {
    const p = await fx.product(1500, 4);
    const request = basketRequestSchema.parse({
      items: [{ productStockId: p.stockId, requestedQty: 6 }],
      deliveryAddress: { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 },
      deliveryMethodRateId: 3,
    });
    const inThread = await thread.verify(request, () => Promise.reject(new Error('priced elsewhere')));
    expect(inThread).toEqual(await createBasketService(db.kysely).verify(request));
    expect(inThread.items[0]).toMatchObject({ availableStock: 4, hasError: true });
  });

  it('prices a few baskets in the thread at once and hands the rest back, so a flood cannot take the commits’ turns', async () => {
    const p = await fx.product(1500, 4);
    const request = basketRequestSchema.parse({ items: [{ productStockId: p.stockId, requestedQty: 1 }] });
    const service = createBasketService(db.kysely);
    let handedBack = 0;
    const elsewhere = (r: typeof request) => {
      handedBack++;
      return service.verify(r);
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => thread.verify(request, elsewhere)));
    expect(handedBack).toBe(10 - PRICINGS_IN_THREAD);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // Once those are done, the thread prices again.
    await thread.verify(request, elsewhere);
    expect(handedBack).toBe(10 - PRICINGS_IN_THREAD);
  });

  it('answers a basket that changed with the corrected basket, writing nothing', async () => {
    const p = await fx.product(2000, 1);
    const answer = await thread.commit(commitBody([{ productStockId: p.stockId, requestedQty: 3 }]), undefined, 'c2');
    expect(answer).toMatchObject({ ok: false });
    expect(await fx.stockOf(p.stockId)).toBe(1);
  });

  it('refuses as the service does: a third unpaid order for one address is a 429 with its code', async () => {
    const p = await fx.product(2000, 10);
    const body = commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
      guest: { titleId: 1, firstname: 'A', lastname: 'B', email: 'limits@example.com', contactNumber: '0121 496 0000' },
    });
    await thread.commit(body, undefined, 'c3');
    await thread.commit(body, undefined, 'c3');
    const refused = await thread.commit(body, undefined, 'c3').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_UNPAID_ORDERS' });
  });

  it('once stopped, answers every commit with a database-unavailable error (a 503), not silence', async () => {
    const other = startCheckoutThread({
      databaseUrl: database.url,
      ...(database.pgSchema ? { pgSchema: database.pgSchema } : {}),
      poolSize: 1,
      reservationMinutes: 60,
    });
    const p = await fx.product(2000, 5);
    await other.commit(commitBody([{ productStockId: p.stockId, requestedQty: 1 }]));
    await other.close();
    const after = await other.commit(commitBody([{ productStockId: p.stockId, requestedQty: 1 }])).catch((e) => e);
    expect(isDatabaseUnavailable(after)).toBe(true);
  });
});

describe('errors crossing from the checkout thread', () => {
  it('keep their class and fields: a bad field, a refusal, an unreachable database, a fault', () => {
    const bad = rebuildError(describeError(new BadRequestError('No such delivery method', 'deliveryMethodRateId')));
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad).toMatchObject({ message: 'No such delivery method', field: 'deliveryMethodRateId' });

    const refused = rebuildError(describeError(new RefusedError(422, 'NOTHING_TO_PAY', 'Nothing to pay', 'items')));
    expect(refused).toMatchObject({ status: 422, code: 'NOTHING_TO_PAY', field: 'items' });

    const down = rebuildError(describeError(Object.assign(new Error('terminating connection'), { code: '57P01' })));
    expect(isDatabaseUnavailable(down)).toBe(true);

    const fault = rebuildError(describeError(new TypeError('x is undefined')));
    expect(fault).not.toBeInstanceOf(RefusedError);
    expect(isDatabaseUnavailable(fault)).toBe(false);
    expect(fault.message).toContain('x is undefined');
    expect(fault.stack).toContain('TypeError');
  });
});
