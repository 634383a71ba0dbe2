import { describe, expect, it } from 'vitest';
import type { BasketQuery } from '../../contract/basket.ts';
import { vatContainedIn } from '../../contract/money.ts';
import {
  applicableMethods,
  priceBasket,
  voucherDiscount,
  voucherOutcome,
  type PricingFacts,
  type StockFact,
  type VoucherFact,
} from './pricing.ts';

const stock = (id: number, price: number, units: number): StockFact => ({
  id,
  productId: id * 10,
  title: `Product ${id}`,
  sizeName: 'Standard',
  urlKey: `product-${id}`,
  imageUrl: '',
  price,
  priceWithoutDiscount: price,
  priceReduction: 0,
  stock: units,
  available: true,
});

const voucher = (overrides: Partial<VoucherFact> = {}): VoucherFact => ({
  code: 'SAVE10',
  kind: 'percent',
  amount: 10,
  minSpend: 0,
  validFrom: '2020-01-01T00:00:00.000Z',
  validTo: '2030-01-01T00:00:00.000Z',
  usageLimit: null,
  timesUsed: 0,
  ...overrides,
});

const now = new Date('2026-11-22T12:00:00.000Z');
const methods = [
  { id: 1, name: 'Standard', rate: 495, kind: 'delivery' as const, minItemsTotal: null, maxItemsTotal: 5000 },
  { id: 2, name: 'Free standard', rate: 0, kind: 'delivery' as const, minItemsTotal: 5000, maxItemsTotal: null },
  { id: 3, name: 'Express', rate: 995, kind: 'delivery' as const, minItemsTotal: null, maxItemsTotal: null },
];

function facts(stocks: StockFact[], vouchers: VoucherFact[] = []): PricingFacts {
  return {
    stocks: new Map(stocks.map((s) => [s.id, s])),
    deliveryMethods: methods,
    vouchers: new Map(vouchers.map((v) => [v.code, v])),
    countryNames: new Map([[1, 'United Kingdom']]),
    titleIds: new Set([1]),
    now,
  };
}

const request = (overrides: Partial<BasketQuery>): BasketQuery => ({ items: [], ...overrides });

describe('basket pricing', () => {
  it('prices lines from the database, ignoring prices the client sends', () => {
    const priced = priceBasket(
      request({
        items: [
          { productStockId: 1, requestedQty: 2, price: 1 },
          { productStockId: 2, requestedQty: 1, price: 1 },
        ],
      }),
      facts([stock(1, 1250, 5), stock(2, 999, 5)]),
    );
    expect(priced.items.map((l) => [l.price, l.lineTotal, l.hasError, l.errorCode])).toEqual([
      [1250, 2500, false, null],
      [999, 999, false, null],
    ]);
    expect(priced).toMatchObject({
      itemCount: 3,
      itemsTotal: 3499,
      discountAmount: 0,
      totalPriceExcludingDelivery: 3499,
    });
    expect(priced.totalVat).toBe(583);
  });

  it.each([
    ['a quantity of 0', 0, undefined, 5, 4],
    ['a negative quantity', -1, undefined, 5, 4],
    ['a fractional quantity', 1.5, undefined, 5, 4],
    ['no quantity', null, undefined, 5, 4],
    ['a product now out of stock', 1, 3, 0, 1],
    ['more than the stock, which changed since last seen', 4, 6, 3, 2],
    ['more than the stock, as last seen', 4, 3, 3, 3],
    ['more than the stock on a first look', 4, undefined, 3, 3],
  ])('marks %s with error code %#', (_, qty, seen, units, code) => {
    const priced = priceBasket(
      request({ items: [{ productStockId: 1, requestedQty: qty, availableStock: seen ?? null }] }),
      facts([stock(1, 1000, units)]),
    );
    expect(priced.items[0]).toMatchObject({ hasError: true, errorCode: code, availableStock: units, lineTotal: 0 });
    expect(priced.itemsTotal).toBe(0);
  });

  it('refuses a line of an archived product as no longer available, whatever its stock and quantity', () => {
    const priced = priceBasket(
      request({ items: [{ productStockId: 1, requestedQty: 1 }] }),
      facts([{ ...stock(1, 1000, 5), available: false }]),
    );
    expect(priced.items[0]).toMatchObject({ hasError: true, errorCode: 5, availableStock: 0, lineTotal: 0 });
    expect(priced.itemsTotal).toBe(0);
  });

  it('drops a line whose product is gone, and adds up two lines of one stock entry', () => {
    const priced = priceBasket(
      request({
        items: [
          { productStockId: 9, requestedQty: 1 },
          { productStockId: 1, requestedQty: 2 },
          { productStockId: 1, requestedQty: 2 },
        ],
      }),
      facts([stock(1, 1000, 3)]),
    );
    expect(priced.items).toHaveLength(1);
    expect(priced.items[0]).toMatchObject({ productStockId: 1, requestedQty: 4, errorCode: 3 });
  });

  it('lists the delivery methods that apply at the items total, with the 50 pound threshold', () => {
    expect(applicableMethods(methods, 4999).map((m) => m.id)).toEqual([1, 3]);
    expect(applicableMethods(methods, 5000).map((m) => m.id)).toEqual([2, 3]);
    const priced = priceBasket(
      request({ items: [{ productStockId: 1, requestedQty: 1 }], deliveryMethodRateId: 3 }),
      facts([stock(1, 2000, 3)]),
    );
    expect(priced).toMatchObject({
      deliveryPrice: 995,
      deliveryMethodRateId: 3,
      totalPriceIncludingDelivery: 2995,
      totalVat: vatContainedIn(2995),
    });
    const gone = priceBasket(
      request({ items: [{ productStockId: 1, requestedQty: 3 }], deliveryMethodRateId: 1 }),
      facts([stock(1, 2000, 3)]),
    );
    expect(gone).toMatchObject({ deliveryPrice: null, deliveryMethodRateId: null, totalPriceIncludingDelivery: 6000 });
  });

  it('works out VAT as the part of the total that is VAT, rounded to the penny', () => {
    expect(vatContainedIn(12000)).toBe(2000);
    expect(vatContainedIn(999)).toBe(167);
    expect(vatContainedIn(1)).toBe(0);
    expect(vatContainedIn(3)).toBe(1);
  });

  describe('vouchers', () => {
    it.each([
      ['applies a valid voucher', voucher(), 1],
      ['refuses an unknown code', undefined, 2],
      ['refuses a voucher before it starts', voucher({ validFrom: '2027-01-01T00:00:00.000Z' }), 3],
      ['refuses an expired voucher', voucher({ validTo: '2026-11-22T11:59:59.999Z' }), 3],
      ['refuses a used-up voucher', voucher({ usageLimit: 5, timesUsed: 5 }), 2],
      ['refuses a voucher whose minimum spend is not met', voucher({ minSpend: 10001 }), 4],
      ['accepts exactly the minimum spend', voucher({ minSpend: 10000 }), 1],
    ])('%s', (_, v, outcome) => {
      expect(voucherOutcome(v, 10000, now)).toBe(outcome);
    });

    it('takes a percent off the items total, rounded, and a fixed amount no larger than the total', () => {
      expect(voucherDiscount(voucher({ amount: 10 }), 1005)).toBe(101);
      expect(voucherDiscount(voucher({ amount: 15 }), 999)).toBe(150);
      expect(voucherDiscount(voucher({ kind: 'fixed', amount: 1000 }), 2500)).toBe(1000);
      expect(voucherDiscount(voucher({ kind: 'fixed', amount: 1000 }), 600)).toBe(600);
    });

    it('applies an attempt, keeps it while it holds, and says why it went when it stops holding', () => {
      const save = voucher({ minSpend: 2000 });
      const first = priceBasket(
        request({
          items: [{ productStockId: 1, requestedQty: 3 }],
          voucherCodeAttempt: ' save10 ',
          deliveryMethodRateId: 3,
        }),
        facts([stock(1, 1000, 9)], [save]),
      );
      expect(first).toMatchObject({
        appliedVouchers: [{ code: 'SAVE10' }],
        lastVoucherOutcome: 1,
        itemsTotal: 3000,
        discountAmount: 300,
        totalPriceExcludingDelivery: 2700,
        totalPriceIncludingDelivery: 3695,
        totalVat: vatContainedIn(3695),
      });
      const kept = priceBasket(
        request({ items: [{ productStockId: 1, requestedQty: 3 }], appliedVouchers: [{ code: 'SAVE10' }] }),
        facts([stock(1, 1000, 9)], [save]),
      );
      expect(kept).toMatchObject({
        appliedVouchers: [{ code: 'SAVE10' }],
        lastVoucherOutcome: null,
        discountAmount: 300,
      });
      const dropped = priceBasket(
        request({ items: [{ productStockId: 1, requestedQty: 1 }], appliedVouchers: [{ code: 'SAVE10' }] }),
        facts([stock(1, 1000, 9)], [save]),
      );
      expect(dropped).toMatchObject({ appliedVouchers: [], lastVoucherOutcome: 4, discountAmount: 0 });
    });

    it('keeps the applied voucher when a new attempt fails', () => {
      const priced = priceBasket(
        request({
          items: [{ productStockId: 1, requestedQty: 1 }],
          appliedVouchers: [{ code: 'SAVE10' }],
          voucherCodeAttempt: 'NOPE',
        }),
        facts([stock(1, 1000, 9)], [voucher()]),
      );
      expect(priced).toMatchObject({
        appliedVouchers: [{ code: 'SAVE10' }],
        lastVoucherOutcome: 2,
        discountAmount: 100,
      });
    });
  });
});
