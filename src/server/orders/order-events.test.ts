import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basketCommitSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { createTestDb, type TestDatabase } from '../../../test/helpers/test-db.ts';
import type { Db } from '../db/database.ts';
import { createOrdersService } from './orders.service.ts';

/** The order moves the metrics count (shop_orders_total): told once each committed, never for one rolled back. */
describe('the orders service tells of each order created, replaced and expired', () => {
  let db: Db;
  let database: TestDatabase;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    ({ db, database } = await createTestDb());
    fx = await checkoutFixtures(db);
  });
  afterAll(() => database.drop());

  it('after each transaction commits, and not for a commit that changed nothing', async () => {
    const events: string[] = [];
    let now = new Date();
    const orders = createOrdersService(db.kysely, {
      reservationMinutes: 60,
      clock: () => now,
      onOrderEvent: (event) => events.push(event),
    });
    const product = await fx.product(2500, 3);
    const basket = (extra = {}) =>
      basketCommitSchema.parse(commitBody([{ productStockId: product.stockId, requestedQty: 1 }], extra));

    const first = await orders.commit(basket());
    if (!first.ok) throw new Error('expected an order');
    expect(events).toEqual(['created']);

    // BACK TO CART, then commit: the unpaid order is cancelled and a new one created.
    const second = await orders.commit(basket({ orderCode: first.orderCode }));
    expect(second.ok).toBe(true);
    expect(events).toEqual(['created', 'cancelled', 'created']);

    // More than is left: the transaction rolls back, and nothing is told.
    const tooMany = await orders.commit(
      basketCommitSchema.parse(commitBody([{ productStockId: product.stockId, requestedQty: 5 }])),
    );
    expect(tooMany.ok).toBe(false);
    expect(events).toEqual(['created', 'cancelled', 'created']);

    now = new Date(now.getTime() + 61 * 60_000);
    expect(await orders.releaseExpiredReservations()).toBe(1);
    expect(events).toEqual(['created', 'cancelled', 'created', 'expired']);
  });
});
