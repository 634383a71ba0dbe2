import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { BasketQuery, DeliveryMethodRate, PricedBasket } from '../../contract/basket.ts';
import type { Database } from '../db/schema.ts';
import type { UnpaidHolder, UnpaidHoldings } from '../orders/orders.repository.ts';
import {
  loadCountryNames,
  loadDeliveryMethods,
  loadHeldByOrder,
  loadPaidOrderNumber,
  loadPricingFactsAtOnce,
  loadStockFacts,
  loadTitleIds,
  loadVouchers,
  type PricingFactRows,
} from './basket.repository.ts';
import { applicableMethods, deliveryCountryId, mergeLines, priceBasket, type PricingFacts } from './pricing.ts';

/**
 * Countries, titles and delivery methods change rarely, so each instance keeps them for a few seconds
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

/** The codes of the vouchers a request names (attempt and applied), upper case. */
function voucherCodesOf(request: BasketQuery): string[] {
  const codes = [request.voucherCodeAttempt, request.appliedVouchers?.[0]?.code]
    .map((code) => code?.trim().toUpperCase())
    .filter((code): code is string => Boolean(code));
  return [...new Set(codes)];
}

function factsFrom(rows: PricingFactRows, now: Date): PricingFacts {
  // The order this basket came back from holds its own units; they are there for it. (At commit the
  // order is replaced first, in the same transaction, so they are back in stock and not counted twice.)
  const heldForThisBasket = new Map(rows.held.map((line) => [line.productStockId, line.quantity]));
  return {
    stocks: new Map(rows.stocks.map((s) => [s.id, { ...s, stock: s.stock + (heldForThisBasket.get(s.id) ?? 0) }])),
    deliveryMethods: rows.deliveryMethods,
    vouchers: new Map(rows.vouchers.map((v) => [v.code, v])),
    countryNames: rows.countryNames,
    titleIds: rows.titleIds,
    now,
  };
}

/** Reads what pricing needs, on the database, keeping countries and delivery methods a few seconds. */
export async function gatherFacts(db: Kysely<Database>, request: BasketQuery, now: Date): Promise<PricingFacts> {
  const countryId = deliveryCountryId(request);
  const [stocks, deliveryMethods, vouchers, countryNames, titleIds, held, paidOrderNumber] = await Promise.all([
    loadStockFacts(
      db,
      mergeLines(request.items).map((item) => item.productStockId),
    ),
    cached(db, `delivery:${countryId}`, () => loadDeliveryMethods(db, countryId)),
    loadVouchers(db, voucherCodesOf(request)),
    cached(db, 'countries', () => loadCountryNames(db)),
    cached(db, 'titles', () => loadTitleIds(db)),
    request.orderCode ? loadHeldByOrder(db, request.orderCode, now.toISOString()) : [],
    request.orderCode ? loadPaidOrderNumber(db, request.orderCode) : undefined,
  ]);
  return { ...factsFrom({ stocks, deliveryMethods, vouchers, countryNames, titleIds, held }, now), paidOrderNumber };
}

/**
 * Reads what pricing needs inside a caller's transaction (a commit), all afresh and in one
 * statement (docs/decisions/0018-checkout-in-fixed-round-trips.md), with the buyer's unpaid orders
 * counted in it when `holdingsOf` is given.
 */
export async function gatherFactsAtOnce(
  trx: Kysely<Database>,
  request: BasketQuery,
  now: Date,
  holdingsOf?: UnpaidHolder,
): Promise<{ facts: PricingFacts; holdings: UnpaidHoldings | undefined }> {
  const rows = await loadPricingFactsAtOnce(trx, {
    stockIds: mergeLines(request.items).map((item) => item.productStockId),
    countryId: deliveryCountryId(request),
    voucherCodes: voucherCodesOf(request),
    orderCode: request.orderCode ?? undefined,
    now: now.toISOString(),
    ...(holdingsOf ? { holdingsOf } : {}),
  });
  return { facts: factsFrom(rows, now), holdings: rows.holdings };
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
