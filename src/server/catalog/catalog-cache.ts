import { LRUCache } from 'lru-cache';
import type { Product, SearchQuery, SearchResponse } from '../../contract/catalog.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import { keywordWords } from './search-terms.ts';

/**
 * What one instance keeps of the catalogue, and for how long: search pages
 * (docs/decisions/0002-search-cache.md), and product bodies, the type tree, product keys and the
 * ids random picks are drawn from (docs/decisions/0006-catalogue-cache.md). Nothing is invalidated
 * on a write; entries only age out, so instances may disagree for those seconds. Stock and prices
 * that decide a sale never come from here.
 */

export interface CatalogCacheOptions {
  /** Seconds one instance reuses a search page (docs/decisions/0002-search-cache.md). */
  searchCacheSeconds: number;
  /**
   * Seconds one instance reuses product bodies, the type tree and the ids random picks are drawn
   * from (docs/decisions/0006-catalogue-cache.md). Stock look-ups and basket checks never use it.
   */
  catalogCacheSeconds: number;
}

export type SearchPage = Pick<SearchResponse, 'totalResults' | 'isNextPage' | 'results'>;
type ProductTypeRow = Awaited<ReturnType<CatalogRepository['listProductTypes']>>[number];
type FoundProduct = Awaited<ReturnType<CatalogRepository['findProductId']>>;
/** Which products random picks are drawn from: some types, one brand, or all. */
export type CandidateFilter = { typeIds: number[] } | { brandId: number } | Record<string, never>;

/** How the catalogue service loads what the cache does not have. */
export interface CatalogLoaders {
  /** Product bodies by id; unknown ids are left out. */
  products(ids: number[]): Promise<Map<number, Product>>;
  productTypes(): Promise<ProductTypeRow[]>;
  /** The product a path's key (an id or a URL key) names. */
  productByKey(key: string): Promise<FoundProduct>;
  candidates(filter: { typeIds?: number[]; brandId?: number }): Promise<number[]>;
  searchPage(query: SearchQuery): Promise<SearchPage>;
}

/**
 * A loader that keeps each answer for `seconds` in an LRU, sharing one load among concurrent
 * callers; with 0 seconds, every call loads.
 */
function cachedLoader<K extends string | number, V extends object>(
  seconds: number,
  max: number,
  load: (key: K) => Promise<V>,
): (key: K) => Promise<V> {
  if (seconds <= 0) return load;
  // A stale entry is answered while the fresh one loads in the background.
  const cache = new LRUCache<K, V>({
    max,
    ttl: seconds * 1000,
    allowStale: true,
    fetchMethod: (key) => load(key),
  });
  return async (key) => (await cache.fetch(key)) as V;
}

/**
 * Product bodies by id. An entry older than the TTL is still served once while a background
 * load refreshes it (several stale ids in one batch), so a crowd never waits on a wave of
 * expiries; an entry is dropped outright at three times the TTL.
 */
function cachedProducts(
  seconds: number,
  load: (ids: number[]) => Promise<Map<number, Product>>,
): (ids: number[]) => Promise<Product[]> {
  const ttl = seconds * 1000;
  const productCache =
    ttl > 0 ? new LRUCache<number, { product: Product; loadedAt: number }>({ max: 20_000, ttl: ttl * 3 }) : undefined;
  const staleIds = new Set<number>();
  let refreshing = false;
  function refreshInBackground(id: number): void {
    staleIds.add(id);
    if (refreshing) return;
    refreshing = true;
    setImmediate(() => {
      void (async () => {
        try {
          while (staleIds.size > 0) {
            const batch = [...staleIds].slice(0, 500);
            for (const staleId of batch) staleIds.delete(staleId);
            await loadAndKeep(batch);
          }
        } catch {
          // The stale entries stay until they expire outright; the next request loads them.
          staleIds.clear();
        } finally {
          refreshing = false;
        }
      })();
    });
  }
  async function loadAndKeep(ids: number[]): Promise<Map<number, Product>> {
    const loaded = await load(ids);
    const loadedAt = Date.now();
    for (const [id, product] of loaded) productCache?.set(id, { product, loadedAt });
    return loaded;
  }

  /** Products by id, in the order asked, from the cache where it has them; unknown ids are left out. */
  return async (ids) => {
    const now = Date.now();
    const found = new Map<number, Product>();
    const missing: number[] = [];
    for (const id of ids) {
      const cached = productCache?.get(id);
      if (!cached) missing.push(id);
      else {
        found.set(id, cached.product);
        if (now - cached.loadedAt > ttl) refreshInBackground(id);
      }
    }
    if (missing.length > 0) for (const [id, product] of await loadAndKeep(missing)) found.set(id, product);
    return ids.flatMap((id) => {
      const product = found.get(id);
      return product ? [product] : [];
    });
  };
}

/** A candidates filter as a cache key: `types:1,2` (sorted) or `brand:7` or `all`. */
function candidateKey(filter: CandidateFilter): string {
  if ('typeIds' in filter) return `types:${[...filter.typeIds].sort((a, b) => a - b).join(',')}`;
  if ('brandId' in filter) return `brand:${filter.brandId}`;
  return 'all';
}

function candidateFilterOf(key: string): { typeIds?: number[]; brandId?: number } {
  const [kind, list] = key.split(':');
  if (kind === 'types') return { typeIds: (list ?? '').split(',').map(Number) };
  if (kind === 'brand') return { brandId: Number(list) };
  return {};
}

/** Requests that differ only in case, spacing or filter order share one cached page. */
function searchPageKey(query: SearchQuery): string {
  return JSON.stringify([
    keywordWords(query.title),
    [...new Set(query.typeId)].sort((a, b) => a - b),
    [...new Set(query.brandId)].sort((a, b) => a - b),
    query.pageSize,
    query.pageNumber,
  ]);
}

function cachedSearchPages(
  seconds: number,
  load: (query: SearchQuery) => Promise<SearchPage>,
): (query: SearchQuery) => Promise<SearchPage> {
  if (seconds <= 0) return load;
  const searchCache = new LRUCache<string, SearchPage>({ max: 2000, ttl: seconds * 1000 });
  return async (query) => {
    const key = searchPageKey(query);
    let page = searchCache.get(key);
    if (!page) {
      page = await load(query);
      searchCache.set(key, page);
    }
    return page;
  };
}

/** The catalogue's reads, each through its own cache (or straight through where its seconds are 0). */
export function createCatalogCache(options: CatalogCacheOptions, load: CatalogLoaders) {
  const seconds = options.catalogCacheSeconds;
  const productTypes = cachedLoader(seconds, 1, () => load.productTypes());
  const productKeys = cachedLoader(seconds, 20_000, async (key: string) => ({ found: await load.productByKey(key) }));
  const candidates = cachedLoader(seconds, 1000, (key: string) => load.candidates(candidateFilterOf(key)));
  return {
    products: cachedProducts(seconds, load.products),
    productTypes: () => productTypes(0),
    productByKey: async (key: string) => (await productKeys(key)).found,
    candidates: (filter: CandidateFilter) => candidates(candidateKey(filter)),
    searchPage: cachedSearchPages(options.searchCacheSeconds, load.searchPage),
  };
}
