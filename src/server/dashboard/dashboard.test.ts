import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createDashboardService } from './dashboard.admin-service.ts';
import { ukDayOf, ukDayStart, ukWeekStart } from './uk-days.ts';

describe('UK days', () => {
  it('counts a summer night’s half past midnight in the new day, and starts it an hour before UTC midnight', () => {
    expect(ukDayOf(new Date('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(ukDayStart('2026-07-02').toISOString()).toBe('2026-07-01T23:00:00.000Z');
    expect(ukDayStart('2026-12-01').toISOString()).toBe('2026-12-01T00:00:00.000Z');
    // The days the clocks change begin at midnight of the offset before the change.
    expect(ukDayStart('2026-03-29').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(ukDayStart('2026-10-25').toISOString()).toBe('2026-10-24T23:00:00.000Z');
  });

  it('starts a week on Monday', () => {
    expect(ukWeekStart('2026-11-23')).toBe('2026-11-23');
    expect(ukWeekStart('2026-11-29')).toBe('2026-11-23');
    expect(ukWeekStart('2026-11-22')).toBe('2026-11-16');
  });
});

describe('back office dashboard', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let made = 0;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  async function placeOrder(stock = 10, options: { email?: string; quantity?: number; price?: number } = {}) {
    const p = await fx.product(options.price ?? 2000, stock);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: options.quantity ?? 1 }], {
        guest: { ...guest, email: options.email ?? `d${++made}@example.com` },
      }),
    });
    const result = commitResponseSchema.parse(answer.json());
    if (!result.ok) throw new Error(answer.body);
    return result.orderNumber;
  }
  const setOrder = (orderNumber: number, values: { status?: 'paid'; paid_at?: string; reserved_until?: string }) =>
    t.db.kysely.updateTable('orders').set(values).where('order_number', '=', orderNumber).execute();
  const totalOf = async (orderNumber: number) =>
    t.db.kysely
      .selectFrom('orders')
      .select(['total_including_delivery', 'total_vat'])
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();

  it('counts sales by the UK day they were paid, over today, the week, the month and 30 days', async () => {
    const now = new Date('2026-07-02T10:00:00Z');
    const justAfterMidnight = await placeOrder();
    await setOrder(justAfterMidnight, { status: 'paid', paid_at: '2026-07-01T23:30:00.000Z' });
    const lateYesterday = await placeOrder();
    await setOrder(lateYesterday, { status: 'paid', paid_at: '2026-07-01T22:30:00.000Z' });
    const lastMonth = await placeOrder();
    await setOrder(lastMonth, { status: 'paid', paid_at: '2026-06-10T12:00:00.000Z' });
    const longAgo = await placeOrder();
    await setOrder(longAgo, { status: 'paid', paid_at: '2026-04-01T12:00:00.000Z' });
    const one = await totalOf(justAfterMidnight);

    const board = await createDashboardService(t.db.kysely, { lowStockThreshold: 3, now: () => now }).dashboard();
    expect(board.today).toEqual({
      count: 1,
      gross: one.total_including_delivery,
      vat: one.total_vat,
      refunds: 0,
      net: one.total_including_delivery,
      averageOrder: one.total_including_delivery,
    });
    // Monday 29 June to Thursday 2 July, and July so far.
    expect(board.week.count).toBe(2);
    expect(board.month.count).toBe(2);
    expect(board.daily).toHaveLength(30);
    expect(board.daily.at(-1)).toEqual({ date: '2026-07-02', count: 1, gross: one.total_including_delivery });
    expect(board.daily.at(-2)).toMatchObject({ date: '2026-07-01', count: 1 });
    expect(board.daily.find((day) => day.date === '2026-06-10')).toMatchObject({ count: 1 });
    expect(board.daily[0]!.date).toBe('2026-06-03');
    expect(board.daily.reduce((sum, day) => sum + day.count, 0)).toBe(3);
  });

  it('lists what needs doing: paid orders to dispatch, unpaid orders about to lapse, low stock', async () => {
    const { cookie } = await staffMember(t, 'staff');
    const paid = await placeOrder();
    await setOrder(paid, { status: 'paid', paid_at: new Date().toISOString() });
    const lapsing = await placeOrder();
    await setOrder(lapsing, { reserved_until: new Date(Date.now() + 5 * 60_000).toISOString() });
    const notYet = await placeOrder();
    await setOrder(notYet, { reserved_until: new Date(Date.now() + 50 * 60_000).toISOString() });
    const scarce = await fx.product(1000, 2);

    const board = (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: { cookie } })).json();
    expect(board.awaitingDispatch.oldest.map((o: { orderNumber: number }) => o.orderNumber)).toContain(paid);
    expect(board.awaitingDispatch.count).toBeGreaterThanOrEqual(1);
    const expiring = board.expiringSoon.map((o: { orderNumber: number }) => o.orderNumber);
    expect(expiring).toContain(lapsing);
    expect(expiring).not.toContain(notYet);
    expect(board.lowStock).toEqual(
      expect.arrayContaining([expect.objectContaining({ stockId: scarce.stockId, stock: 2 })]),
    );
    expect(board.lowStock.every((row: { stock: number }) => row.stock <= 3)).toBe(true);
  });

  it('reads sales net of the refunds made in each period, the average order, top products and new and returning customers', async () => {
    // A month of its own (March 2025), so other tests' orders do not count.
    const now = new Date('2025-03-20T12:00:00Z');
    const setRefund = async (
      orderNumber: number,
      amount: number,
      at: string,
      kind: 'refund' | 'reversal_cancelled',
    ) => {
      const { id } = await t.db.kysely
        .selectFrom('orders')
        .select('id')
        .where('order_number', '=', orderNumber)
        .executeTakeFirstOrThrow();
      await t.db.kysely
        .insertInto('order_refunds')
        .values({
          order_id: id,
          kind,
          amount,
          provider: 'manual',
          provider_reference: `r-${orderNumber}-${amount}`,
          recorded_at: at,
        })
        .execute();
    };
    const regular = `regular.${Date.now()}@example.com`;
    const before = await placeOrder(10, { email: regular });
    await setOrder(before, { status: 'paid', paid_at: '2025-02-10T12:00:00.000Z' });
    // The same person, in other letters' case, again this month: a returning customer.
    const again = await placeOrder(10, { email: regular.toUpperCase(), quantity: 3, price: 5000 });
    await setOrder(again, { status: 'paid', paid_at: '2025-03-19T12:00:00.000Z' });
    const first = await placeOrder(10, { quantity: 1, price: 1000 });
    await setOrder(first, { status: 'paid', paid_at: '2025-03-20T09:00:00.000Z' });
    const firstTwice = await placeOrder(10, {
      email: (
        await t.db.kysely
          .selectFrom('orders')
          .select('email')
          .where('order_number', '=', first)
          .executeTakeFirstOrThrow()
      ).email,
    });
    await setOrder(firstTwice, { status: 'paid', paid_at: '2025-03-20T10:00:00.000Z' });
    // Refunded today: £10 of February's order and £5 of this week's, less a reversal undone.
    await setRefund(before, 1000, '2025-03-20T11:00:00.000Z', 'refund');
    await setRefund(again, 500, '2025-03-20T11:30:00.000Z', 'refund');
    await setRefund(again, 200, '2025-03-20T11:45:00.000Z', 'reversal_cancelled');
    const totals = await Promise.all([again, first, firstTwice].map(totalOf));
    const gross = totals.reduce((sum, order) => sum + order.total_including_delivery, 0);

    const board = await createDashboardService(t.db.kysely, { lowStockThreshold: 3, now: () => now }).dashboard();
    expect(board.month).toMatchObject({
      count: 3,
      gross,
      refunds: 1300,
      net: gross - 1300,
      averageOrder: Math.round(gross / 3),
    });
    expect(board.today).toMatchObject({ count: 2, refunds: 1300 });
    expect(board.customers).toEqual({ new: 1, returning: 1 });
    // The £150 of three tablas first, then the £20 one and the £10 one.
    expect(board.topProducts.map((product) => [product.units, product.gross])).toEqual([
      [3, 15000],
      [1, 2000],
      [1, 1000],
    ]);
    expect(board.topProducts[0]).toMatchObject({ productId: expect.any(Number), title: expect.any(String) });
  });

  it('counts every low size, beyond the ones it lists', async () => {
    const { cookie } = await staffMember(t, 'staff');
    for (let i = 0; i < 22; i++) await fx.product(1000, 1);
    const board = (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: { cookie } })).json();
    expect(board.lowStock).toHaveLength(20);
    expect(board.lowStockCount).toBeGreaterThanOrEqual(22);
  });
});
