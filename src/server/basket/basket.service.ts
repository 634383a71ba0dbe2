import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { BasketQuery, DeliveryMethodRate, PricedBasket } from '../../contract/basket.ts';
import type { Database } from '../db/schema.ts';
import {
  loadCountryNames,
  loadDeliveryMethods,
  loadHeldByOrder,
  loadStockFacts,
  loadVouchers,
} from './basket.repository.ts';
import { applicableMethods, deliveryCountryId, mergeLines, priceBasket, type PricingFacts } from './pricing.ts';

/**
 * Countries and delivery methods change rarely, so each instance keeps them for a few seconds
 * (another instance sees a change within 10 s); the instance where staff change them forgets them at
 * once (forgetReferenceData). Stock, prices and vouchers are always read fresh, and the commit checks
 * them again inside its transaction.
 */
const referenceData = new WeakMap<Kysely<Database>, LRUCache<string, { value: unknown }>>();
const REFERENCE_DATA_MS = 10_000;

/** After staff change countries or delivery methods (docs/back-office.md#delivery): read afresh. */
export function forgetReferenceData(db: Kysely<Database>): void {
  referenceData.get(db)?.clear();
}

/** Per database handle; a transaction is a handle of its own, so a commit always reads afresh. */
async function cached<T>(db: Kysely<Database>, key: string, load: () => Promise<T>): Promise<T> {
  let cache = referenceData.get(db);
  if (!cache) {
    cache = new LRUCache({ max: 100, ttl: REFERENCE_DATA_MS });
    referenceData.set(db, cache);
  }
  const hit = cache.get(key);
  if (hit) return hit.value as T;
  const value = await load();
  cache.set(key, { value });
  return value;
}

/** Reads what pricing needs, on the database or inside a caller's transaction. */
export async function gatherFacts(db: Kysely<Database>, request: BasketQuery, now: Date): Promise<PricingFacts> {
  const codes = [request.voucherCodeAttempt, request.appliedVouchers?.[0]?.code]
    .map((code) => code?.trim().toUpperCase())
    .filter((code): code is string => Boolean(code));
  const countryId = deliveryCountryId(request);
  const [stocks, deliveryMethods, vouchers, countryNames, held] = await Promise.all([
    loadStockFacts(
      db,
      mergeLines(request.items).map((item) => item.productStockId),
    ),
    cached(db, `delivery:${countryId}`, () => loadDeliveryMethods(db, countryId)),
    loadVouchers(db, [...new Set(codes)]),
    cached(db, 'countries', () => loadCountryNames(db)),
    request.orderCode ? loadHeldByOrder(db, request.orderCode, now.toISOString()) : [],
  ]);
  // The order this basket came back from holds its own units; they are there for it. (At commit the
  // order is replaced first, in the same transaction, so they are back in stock and not counted twice.)
  const heldForThisBasket = new Map(held.map((line) => [line.productStockId, line.quantity]));
  return {
    stocks: new Map(stocks.map((s) => [s.id, { ...s, stock: s.stock + (heldForThisBasket.get(s.id) ?? 0) }])),
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
