import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pricedBasketSchema } from '../../contract/basket.ts';
import { address, checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

describe('POST /api/verify-basket and GET /api/delivery-methods', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    t = await createTestApp();
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  async function verify(body: unknown) {
    const response = await t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: body as object });
    expect(response.statusCode, response.body).toBe(200);
    return pricedBasketSchema.parse(response.json());
  }

  it('prices the basket from the database whatever prices and totals the client sends', async () => {
    const a = await fx.product(2500, 10);
    const b = await fx.product(1999, 10);
    const basket = await verify({
      items: [
        { productStockId: a.stockId, requestedQty: 2, price: 1 },
        { productStockId: b.stockId, requestedQty: 1, price: 1 },
      ],
      itemsTotal: 3,
      totalPriceIncludingDelivery: 3,
      discountAmount: 99999,
      deliveryAddress: address,
      deliveryMethodRateId: 2,
    });
    expect(basket.items.map((l) => [l.price, l.lineTotal, l.title])).toEqual([
      [2500, 5000, a.title],
      [1999, 1999, b.title],
    ]);
    expect(basket).toMatchObject({
      itemCount: 3,
      itemsTotal: 6999,
      discountAmount: 0,
      deliveryMethodRateId: 2,
      deliveryPrice: 0,
      totalPriceIncludingDelivery: 6999,
      totalVat: 1167,
      deliveryAddress: { countryName: 'United Kingdom' },
    });
    expect(basket.deliveryMethodRates.map((m) => m.id)).toEqual([2, 3]);
  });

  it('prices again a basket over £10,000,000 when the page sends back the total it was shown', async () => {
    // The page sends the last total with every check; a cap below what a basket can come to once
    // answered every check after the first with a 400, so such a basket was stuck.
    const p = await fx.product(10_000_000, 200);
    const items = [{ productStockId: p.stockId, requestedQty: 150 }];
    const first = await verify({ items, deliveryAddress: address, deliveryMethodRateId: 3 });
    expect(first.totalPriceIncludingDelivery).toBe(1_500_000_995);
    const again = await verify({
      items,
      deliveryAddress: address,
      deliveryMethodRateId: 3,
      totalPriceIncludingDelivery: first.totalPriceIncludingDelivery,
    });
    expect(again.totalPriceIncludingDelivery).toBe(1_500_000_995);
  });

  it('answers every line error code and drops a line whose product is gone', async () => {
    const out = await fx.product(1000, 0);
    const few = await fx.product(1000, 2);
    const ok = await fx.product(1000, 5);
    const basket = await verify({
      items: [
        { productStockId: out.stockId, requestedQty: 1 },
        { productStockId: few.stockId, requestedQty: 3, availableStock: 4 },
        { productStockId: ok.stockId, requestedQty: 6 },
        { productStockId: 99999999, requestedQty: 1 },
      ],
    });
    expect(basket.items.map((l) => [l.productStockId, l.errorCode, l.availableStock])).toEqual([
      [out.stockId, 1, 0],
      [few.stockId, 2, 2],
      [ok.stockId, 3, 5],
    ]);
    const invalid = await verify({ items: [{ productStockId: ok.stockId, requestedQty: 0 }] });
    expect(invalid.items[0]).toMatchObject({ hasError: true, errorCode: 4 });
  });

  it('answers every voucher outcome', async () => {
    const p = await fx.product(6000, 10);
    const valid = await fx.voucher({ amount: 10, minSpend: 5000 });
    const expired = await fx.voucher({ validTo: '2021-01-01T00:00:00.000Z' });
    const minimum = await fx.voucher({ minSpend: 100000 });
    const items = [{ productStockId: p.stockId, requestedQty: 1 }];
    const outcome = async (code: string) => (await verify({ items, voucherCodeAttempt: code })).lastVoucherOutcome;
    expect(await outcome(valid.toLowerCase())).toBe(1);
    expect(await outcome('NO-SUCH-CODE')).toBe(2);
    expect(await outcome(expired)).toBe(3);
    expect(await outcome(minimum)).toBe(4);
    const applied = await verify({ items, voucherCodeAttempt: valid });
    expect(applied).toMatchObject({
      appliedVouchers: [{ code: valid }],
      discountAmount: 600,
      totalPriceExcludingDelivery: 5400,
    });
  });

  it('lists the delivery methods that apply to a country and items total', async () => {
    const list = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();
    expect(await list('/api/delivery-methods/1/1000')).toEqual([
      { id: 1, name: 'Standard delivery', rate: 495, kind: 'delivery' },
      { id: 3, name: 'Express delivery', rate: 995, kind: 'delivery' },
    ]);
    expect((await list('/api/delivery-methods/1/5000')).map((m: { id: number }) => m.id)).toEqual([2, 3]);
    expect(await list('/api/delivery-methods/2/1000')).toEqual([]);
  });

  it.each([
    [{}, 'items'],
    [{ items: 'x' }, 'items'],
    [{ items: [{ productStockId: 'a', requestedQty: 1 }] }, 'items.0.productStockId'],
    [{ items: [{ productStockId: 1, requestedQty: '2' }] }, 'items.0.requestedQty'],
    [{ items: [{ productStockId: 1, requestedQty: 1e12 }] }, 'items.0.requestedQty'],
    [{ items: Array.from({ length: 101 }, (_, i) => ({ productStockId: i + 1, requestedQty: 1 })) }, 'items'],
    [{ items: [], voucherCodeAttempt: 'x'.repeat(41) }, 'voucherCodeAttempt'],
    [{ items: [], deliveryAddress: { postcode: 'x'.repeat(11) } }, 'deliveryAddress.postcode'],
  ])('answers %j with a 400 naming %s', async (body, field) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('limits voucher attempts from one address, but not basket checks', async () => {
    const attempt = (voucherCodeAttempt?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/verify-basket',
        payload: { items: [], ...(voucherCodeAttempt ? { voucherCodeAttempt } : {}) },
        remoteAddress: '198.51.100.7',
      });
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await attempt(`GUESS${i}`)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await attempt()).statusCode).toBe(200);
  });

  it.each(['/api/delivery-methods/x/100', '/api/delivery-methods/1/-5', '/api/delivery-methods/0/100'])(
    'answers %s with a 400',
    async (url) => {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(400);
    },
  );
});
