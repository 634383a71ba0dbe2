import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema, pricedBasketSchema } from '../../contract/basket.ts';
import { errorCodes, refusalMessages } from '../../contract/error-codes.ts';
import { createOrdersService } from './orders.service.ts';
import { address, checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';

describe('POST /api/basket, GET /api/recover-basket and the reservation sweep', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    t = await createTestApp();
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  async function commit(body: unknown) {
    const response = await t.app.inject({ method: 'POST', url: '/api/basket', payload: body as object });
    expect(response.statusCode, response.body).toBe(200);
    return commitResponseSchema.parse(response.json());
  }
  const orderCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates the order with its lines at the prices charged, and reserves the stock', async () => {
    const a = await fx.product(2500, 5);
    const b = await fx.product(1000, 3);
    const result = await commit(
      commitBody([
        { productStockId: a.stockId, requestedQty: 2 },
        { productStockId: b.stockId, requestedQty: 1 },
      ]),
    );
    if (!result.ok) throw new Error('expected an order');
    expect(result.orderNumber).toBeGreaterThan(100000);
    expect(result.orderCode).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await fx.stockOf(a.stockId)).toBe(3);
    expect(await fx.stockOf(b.stockId)).toBe(2);
    const order = await t.db.kysely
      .selectFrom('orders')
      .selectAll()
      .where('order_code', '=', result.orderCode)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      status: 'pending_payment',
      email: 'asha@example.com',
      items_total: 6000,
      delivery_method_id: 3,
      delivery_price: 995,
      total_including_delivery: 6995,
      total_vat: 1166,
      delivery_postcode: 'B70 7NJ',
      billing_country_name: 'United Kingdom',
    });
    const lines = await t.db.kysely
      .selectFrom('order_lines')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(lines.map((l) => [l.product_stock_id, l.unit_price, l.quantity, l.line_total])).toEqual([
      [a.stockId, 2500, 2, 5000],
      [b.stockId, 1000, 1, 1000],
    ]);
    const second = await commit(commitBody([{ productStockId: b.stockId, requestedQty: 1 }]));
    expect(second.ok && second.orderNumber).toBe(result.orderNumber + 1);
  });

  it('writes nothing and answers the corrected basket when the stock, a price or the total changed', async () => {
    const p = await fx.product(1500, 2);
    const before = await orderCount();
    const tooMany = await commit(commitBody([{ productStockId: p.stockId, requestedQty: 3 }]));
    expect(tooMany.ok).toBe(false);
    if (tooMany.ok) return;
    expect(tooMany.basket.items[0]).toMatchObject({ errorCode: 3, availableStock: 2 });
    const stalePrice = await commit(commitBody([{ productStockId: p.stockId, requestedQty: 1, price: 1200 } as never]));
    expect(stalePrice.ok).toBe(false);
    const staleTotal = await commit(
      commitBody([{ productStockId: p.stockId, requestedQty: 1 }], { totalPriceIncludingDelivery: 100 }),
    );
    expect(staleTotal.ok).toBe(false);
    const gone = await commit(
      commitBody([
        { productStockId: p.stockId, requestedQty: 1 },
        { productStockId: 99999999, requestedQty: 1 },
      ]),
    );
    expect(gone.ok).toBe(false);
    expect(await orderCount()).toBe(before);
    expect(await fx.stockOf(p.stockId)).toBe(2);
  });

  it('refuses an order over £1,000,000 with a 422 saying why, writing and reserving nothing, and takes one of £1,000,000', async () => {
    const p = await fx.product(10_000_000, 20);
    const before = await orderCount();
    // 11 units at £100,000 with express delivery: £1,100,009.95.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 11 }]),
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toEqual({
      code: errorCodes.orderTotalTooLarge,
      message: refusalMessages.orderTotalTooLarge,
    });
    expect(await fx.stockOf(p.stockId)).toBe(20);
    expect(await orderCount()).toBe(before);

    // 10 units at £99,999.00 with express delivery: £999,999.95, within the bound.
    const q = await fx.product(9_999_900, 10);
    const taken = await commit(commitBody([{ productStockId: q.stockId, requestedQty: 10 }]));
    expect(taken.ok).toBe(true);
    expect(await fx.stockOf(q.stockId)).toBe(0);
  });

  it('refuses an order that comes to £0.00 with a 422 saying why, holding no stock or voucher use; with a delivery price to pay it is taken', async () => {
    // An outside attack's 100% voucher with free delivery from £50 made a £0.00 order, handed to
    // PayPal for £0.00, which PayPal refuses: it could never be paid and held its stock until it lapsed.
    const code = await fx.voucher({ kind: 'percent', amount: 100, usageLimit: 5 });
    const p = await fx.product(6000, 5);
    const timesUsed = async () =>
      (await t.db.kysely.selectFrom('vouchers').select('times_used').where('code', '=', code).executeTakeFirstOrThrow())
        .times_used;
    const before = await orderCount();
    const items = [{ productStockId: p.stockId, requestedQty: 1 }];
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody(items, { appliedVouchers: [{ code }], deliveryMethodRateId: 2 }),
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toEqual({ code: errorCodes.nothingToPay, message: refusalMessages.nothingToPay });
    expect(await fx.stockOf(p.stockId)).toBe(5);
    expect(await timesUsed()).toBe(0);
    expect(await orderCount()).toBe(before);

    const express = await commit(commitBody(items, { appliedVouchers: [{ code }], deliveryMethodRateId: 3 }));
    if (!express.ok) throw new Error('expected an order');
    expect(
      await t.db.kysely
        .selectFrom('orders')
        .select(['discount_amount', 'total_including_delivery'])
        .where('order_code', '=', express.orderCode)
        .executeTakeFirstOrThrow(),
    ).toEqual({ discount_amount: 6000, total_including_delivery: 995 });
    expect(await timesUsed()).toBe(1);
  });

  it('sells the last 5 units to exactly 5 of 20 shoppers buying at once', async () => {
    const p = await fx.product(999, 5);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => commit(commitBody([{ productStockId: p.stockId, requestedQty: 1 }]))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    for (const r of results.filter((r) => !r.ok)) {
      if (!r.ok) expect(r.basket.items[0]).toMatchObject({ hasError: true, availableStock: 0, errorCode: 1 });
    }
    expect(await fx.stockOf(p.stockId)).toBe(0);
  });

  it('lets a voucher with a usage limit of 1 be used once by 5 orders at once', async () => {
    const p = await fx.product(2000, 50);
    const code = await fx.voucher({ kind: 'fixed', amount: 500, usageLimit: 1 });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        commit(commitBody([{ productStockId: p.stockId, requestedQty: 1 }], { appliedVouchers: [{ code }] })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await fx.stockOf(p.stockId)).toBe(49);
    const used = await t.db.kysely
      .selectFrom('vouchers')
      .select('times_used')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(used.times_used).toBe(1);
  });

  it.each([
    [{ guest: undefined }, 'guest'],
    [{ guest: { ...guest, email: 'not-an-email' } }, 'guest.email'],
    [{ guest: { ...guest, firstname: '' } }, 'guest.firstname'],
    [{ billingAddress: { ...address, line1: '' } }, 'billingAddress.line1'],
    [{ deliveryAddress: { ...address, postcode: 'NOT A CODE' } }, 'deliveryAddress.postcode'],
    [{ deliveryAddress: { ...address, townCity: '' } }, 'deliveryAddress.townCity'],
    [{ deliveryMethodRateId: null }, 'deliveryMethodRateId'],
    [{ items: [] }, 'items'],
    // Past PostgreSQL's integer: once a 500 from the database.
    [{ deliveryAddress: { ...address, countryId: 2_147_483_648 } }, 'deliveryAddress.countryId'],
    [{ billingAddress: { ...address, countryId: 2_147_483_648 } }, 'billingAddress.countryId'],
    [{ guest: { ...guest, titleId: 2_147_483_648 } }, 'guest.titleId'],
  ])('refuses %j with a 400 naming %s', async (change, field) => {
    const body = { ...commitBody([{ productStockId: 1, requestedQty: 1 }]), ...change };
    const response = await t.app.inject({ method: 'POST', url: '/api/basket', payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it.each([
    [{ guest: { ...guest, titleId: 999 } }, 'guest.titleId'],
    [{ billingAddress: { ...address, countryId: 999 } }, 'billingAddress.countryId'],
    [{ deliveryAddress: { ...address, countryId: 999 } }, 'deliveryAddress.countryId'],
  ])('refuses a title or country the shop does not have (%j): a 400 naming %s, and no order', async (change, field) => {
    const p = await fx.product(2_000, 3);
    const before = await orderCount();
    const body = { ...commitBody([{ productStockId: p.stockId, requestedQty: 1 }]), ...change };
    const response = await t.app.inject({ method: 'POST', url: '/api/basket', payload: body });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await orderCount()).toBe(before);
  });

  it('names the field a text is too long for, refuses a phone number that is not one, and takes a UK number as written', async () => {
    const refused = async (change: object) => {
      const body = { ...commitBody([{ productStockId: 1, requestedQty: 1 }]), ...change };
      const response = await t.app.inject({ method: 'POST', url: '/api/basket', payload: body });
      expect(response.statusCode).toBe(400);
      return response.json().error.fields;
    };
    expect(await refused({ guest: { ...guest, firstname: 'A'.repeat(51) } })).toEqual([
      { field: 'guest.firstname', message: 'First name: at most 50 characters' },
    ]);
    expect(await refused({ deliveryAddress: { ...address, line2: 'x'.repeat(101) } })).toEqual([
      { field: 'deliveryAddress.line2', message: 'Address line 2: at most 100 characters' },
    ]);
    expect(await refused({ guest: { ...guest, contactNumber: 'call me after 6' } })).toEqual([
      { field: 'guest.contactNumber', message: 'Please provide your Contact Number' },
    ]);
    const p = await fx.product(2_500, 3);
    // Kept as the shopper wrote it: people read it back, not machines (contract/fields.ts).
    for (const contactNumber of ['+44 (0)121 496 0000', '(0121) 496 0000']) {
      const result = await commit(
        commitBody([{ productStockId: p.stockId, requestedQty: 1 }], { guest: { ...guest, contactNumber } }),
      );
      if (!result.ok) throw new Error('expected an order');
      const recovered = await t.app.inject({ method: 'GET', url: `/api/recover-basket/${result.orderCode}` });
      expect(pricedBasketSchema.parse(recovered.json()).guest?.contactNumber).toBe(contactNumber);
    }
  });

  it('recovers an unpaid order as a basket, and nothing else', async () => {
    const p = await fx.product(3000, 4);
    const result = await commit(commitBody([{ productStockId: p.stockId, requestedQty: 2 }]));
    if (!result.ok) throw new Error('expected an order');
    const response = await t.app.inject({ method: 'GET', url: `/api/recover-basket/${result.orderCode}` });
    expect(response.statusCode).toBe(200);
    // The shopper's name, e-mail and addresses: kept by no browser cache or proxy (an outside attack found none said so).
    expect(response.headers['cache-control']).toBe('no-store');
    const basket = pricedBasketSchema.parse(response.json());
    expect(basket).toMatchObject({
      orderNumber: result.orderNumber,
      orderCode: result.orderCode,
      itemsTotal: 6000,
      deliveryPrice: 995,
      totalPriceIncludingDelivery: 6995,
      guest: { firstname: 'Asha', email: 'asha@example.com' },
      deliveryAddress: { postcode: 'B70 7NJ', countryName: 'United Kingdom' },
    });
    expect(basket.items).toEqual([
      expect.objectContaining({ productStockId: p.stockId, requestedQty: 2, price: 3000 }),
    ]);
    for (const code of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', 'has spaces in it and more', '../../etc/passwd']) {
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/recover-basket/${encodeURIComponent(code)}` })).statusCode,
      ).toBeGreaterThanOrEqual(400);
    }
    await t.db.kysely
      .updateTable('orders')
      .set({ status: 'paid' })
      .where('order_code', '=', result.orderCode)
      .execute();
    expect((await t.app.inject({ method: 'GET', url: `/api/recover-basket/${result.orderCode}` })).statusCode).toBe(
      404,
    );
  });

  it('replaces the unpaid order a basket was restored from, returning its stock first', async () => {
    const p = await fx.product(1000, 2);
    const first = await commit(commitBody([{ productStockId: p.stockId, requestedQty: 2 }]));
    if (!first.ok) throw new Error('expected an order');
    expect(await fx.stockOf(p.stockId)).toBe(0);
    const again = await commit(
      commitBody([{ productStockId: p.stockId, requestedQty: 2 }], { orderCode: first.orderCode }),
    );
    expect(again.ok).toBe(true);
    expect(await fx.stockOf(p.stockId)).toBe(0);
    const old = await t.db.kysely
      .selectFrom('orders')
      .select('status')
      .where('order_code', '=', first.orderCode)
      .executeTakeFirstOrThrow();
    expect(old.status).toBe('cancelled');
    // A paid order is never cancelled this way, nor bought again (paid-restored-basket.test.ts).
    if (!again.ok) return;
    await t.db.kysely.updateTable('orders').set({ status: 'paid' }).where('order_code', '=', again.orderCode).execute();
    await t.db.kysely.updateTable('product_stocks').set({ stock: 1 }).where('id', '=', p.stockId).execute();
    const third = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }], { orderCode: again.orderCode }),
    });
    expect(third.statusCode, third.body).toBe(409);
    expect(third.json().error.code).toBe(errorCodes.orderAlreadyPaid);
    const paid = await t.db.kysely
      .selectFrom('orders')
      .select('status')
      .where('order_code', '=', again.orderCode)
      .executeTakeFirstOrThrow();
    expect(paid.status).toBe('paid');
  });

  it('counts the stock an order holds as there for the basket restored from it, so the last units can be paid again', async () => {
    const p = await fx.product(1000, 2);
    const first = await commit(commitBody([{ productStockId: p.stockId, requestedQty: 2 }]));
    if (!first.ok) throw new Error('expected an order');
    expect(await fx.stockOf(p.stockId)).toBe(0);
    const restored = pricedBasketSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/recover-basket/${first.orderCode}` })).json(),
    );
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/verify-basket',
      payload: { ...commitBody([{ productStockId: p.stockId, requestedQty: 2 }]), orderCode: first.orderCode },
    });
    const line = pricedBasketSchema.parse(verified.json()).items[0];
    expect(line).toMatchObject({ hasError: false, errorCode: null, availableStock: 2 });
    expect(restored.items[0]?.requestedQty).toBe(2);
    // Someone else's basket, without the code, still sees none.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/verify-basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }]),
    });
    expect(pricedBasketSchema.parse(other.json()).items[0]).toMatchObject({ hasError: true, availableStock: 0 });
  });

  it('releases the stock of an expired reservation once, even when two sweeps run together', async () => {
    const p = await fx.product(1000, 3);
    const result = await commit(commitBody([{ productStockId: p.stockId, requestedQty: 2 }]));
    if (!result.ok) throw new Error('expected an order');
    expect(await fx.stockOf(p.stockId)).toBe(1);
    const later = () => new Date(Date.now() + 61 * 60_000);
    // Two instances: on PostgreSQL two pools; SQLite in one process shares its one connection, where
    // the sweeps still interleave at every await (separate processes wait on the file lock instead).
    const second = testDialect === 'postgres' ? t.database.connect() : t.db;
    const sweepers = [t.db, second].map((db) =>
      createOrdersService(db.kysely, { reservationMinutes: 60, clock: later }),
    );
    await Promise.all(sweepers.map((s) => s.releaseExpiredReservations()));
    expect(await fx.stockOf(p.stockId)).toBe(3);
    const order = await t.db.kysely
      .selectFrom('orders')
      .select('status')
      .where('order_code', '=', result.orderCode)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('expired');
    expect(await sweepers[0]!.releaseExpiredReservations()).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/recover-basket/${result.orderCode}` })).statusCode).toBe(
      404,
    );
  });
});
