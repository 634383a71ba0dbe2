import type { Kysely } from 'kysely';
import type { BasketQuery, DeliveryMethodRate, PricedBasket } from '../../contract/basket.ts';
import type { Database } from '../db/schema.ts';
import { loadCountryNames, loadDeliveryMethods, loadStockFacts, loadVouchers } from './basket.repository.ts';
import { applicableMethods, deliveryCountryId, mergeLines, priceBasket, type PricingFacts } from './pricing.ts';

/** Reads what pricing needs, on the database or inside a caller's transaction. */
export async function gatherFacts(db: Kysely<Database>, request: BasketQuery, now: Date): Promise<PricingFacts> {
  const codes = [request.voucherCodeAttempt, request.appliedVouchers?.[0]?.code]
    .map((code) => code?.trim().toUpperCase())
    .filter((code): code is string => Boolean(code));
  const [stocks, deliveryMethods, vouchers, countryNames] = await Promise.all([
    loadStockFacts(
      db,
      mergeLines(request.items).map((item) => item.productStockId),
    ),
    loadDeliveryMethods(db, deliveryCountryId(request)),
    loadVouchers(db, [...new Set(codes)]),
    loadCountryNames(db),
  ]);
  return {
    stocks: new Map(stocks.map((s) => [s.id, s])),
    deliveryMethods,
    vouchers: new Map(vouchers.map((v) => [v.code, v])),
    countryNames,
    now,
  };
}

export function createBasketService(db: Kysely<Database>, clock: () => Date = () => new Date()) {
  return {
    /** POST /api/verify-basket: the basket priced and corrected from the database. */
    async verify(request: BasketQuery): Promise<PricedBasket> {
      return priceBasket(request, await gatherFacts(db, request, clock()));
    },

    /** GET /api/delivery-methods/{countryId}/{itemsTotal} */
    async deliveryMethods(countryId: number, itemsTotal: number): Promise<DeliveryMethodRate[]> {
      return applicableMethods(await loadDeliveryMethods(db, countryId), itemsTotal);
    },
  };
}

export type BasketService = ReturnType<typeof createBasketService>;
