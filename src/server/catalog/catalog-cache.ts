import { LRUCache } from 'lru-cache';
import type { Brand, Product, SearchQuery, SearchResponse } from '../../contract/catalog.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import {
  cachedLoader,
  countNothing,
  systemClock,
  type Clock,
  type CountLookup,
  type Kept,
} from '../cache/cached-loader.ts';
import { keywordWords } from './search-terms.ts';

/**
 * What one instance keeps of the catalogue, and for how long: search pages
 * (docs/decisions/0002-search-cache.md), and product bodies, the type tree, product keys and the
 * ids random picks are drawn from (docs/decisions/0006-catalogue-cache.md). No answer is ever older
 * than its seconds (docs/decisions/0010-catalogue-in-the-back-office.md): a change made on another
 * instance shows here within them, and `clear()` (called on every back-office write on this
 * instance) makes one show here at once. Stock and prices that decide a sale never come from here.
 */

export interface CatalogCacheOptions {
  /** Seconds one instance reuses a search page (docs/decisions/0002-search-cache.md). */
  searchCacheSeconds: number;
  /**
   * Seconds one instance reuses product bodies, the type tree and the ids random picks are drawn
   * from (docs/decisions/0006-catalogue-cache.md). Stock look-ups and basket checks never use it.
   */
  catalogCacheSeconds: number;
  /** Told how many look-ups a cache answered itself and how many it read (the metrics' hit ratios). */
  countLookups?: (cache: 'search' | 'catalogue', hits: number, misses: number) => void;
  /** How the caches tell age (tests move their own clock on). */
  now?: Clock;
}

/** A search page as it is kept: which products, in order, and how many matched. */
export type SearchHits = Pick<SearchResponse, 'totalResults' | 'isNextPage' | 'facets'> & { ids: number[] };
type ProductTypeRow = Awaited<ReturnType<CatalogRepository['listProductTypes']>>[number];
type FoundProduct = Awaited<ReturnType<CatalogRepository['findProductByKey']>>;
/** A product page's read: the product its key names (any status), and its body when it is published. */
export interface ProductPage {
  found: FoundProduct;
  product: Product | undefined;
}
/** Which products random picks are drawn from: some types, one brand, or all. */
export type CandidateFilter = { typeIds: number[] } | { brandId: number } | Record<string, never>;

/** How the catalogue service loads what the cache does not have. */
export interface CatalogLoaders {
  /** Product bodies by id; unknown ids are left out. */
  products(ids: number[]): Promise<Map<number, Product>>;
  productTypes(): Promise<ProductTypeRow[]>;
  brands(): Promise<Brand[]>;
  /** The product a path's key (an id, a URL key or an old URL key) names. */
  productByKey(key: string): Promise<FoundProduct>;
  /** What a product page shows, read at once (one statement with the cache cold). */
  productPage(key: string): Promise<ProductPage>;
  candidates(filter: { typeIds?: number[]; brandId?: number }): Promise<number[]>;
  searchPage(query: SearchQuery): Promise<SearchHits>;
}

/**
 * Product bodies by id, each reused for at most `seconds`. From half that age a body is still
 * answered while a background load refreshes it (stale ids in batches), so a crowd never waits on
 * a wave of expiries.
 */
function cachedProducts(
  seconds: number,
  load: (ids: number[]) => Promise<Map<number, Product>>,
  count: CountLookup = countNothing,
  now: Clock = systemClock,
): {
  get: (ids: number[]) => Promise<Product[]>;
  /** As CachedLoader's: keeps bodies read elsewhere (a product page's one read). */
  keeper: () => (product: Product) => void;
  clear: () => void;
} {
  const maxAge = seconds * 1000;
  const kept =
    maxAge > 0
      ? new LRUCache<number, Kept<Product>>({ max: 20_000, ttl: maxAge, perf: { now }, ttlResolution: 0 })
      : undefined;
  let generation = 0;
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
          // The entries age out; the next request after that loads them.
          staleIds.clear();
        } finally {
          refreshing = false;
        }
      })();
    });
  }
  function keeper(): (product: Product) => void {
    const startedIn = generation;
    const loadedAt = now();
    return (product) => {
      if (generation === startedIn) kept?.set(product.id, { value: product, loadedAt });
    };
  }
  async function loadAndKeep(ids: number[]): Promise<Map<number, Product>> {
    const keep = keeper();
    const loaded = await load(ids);
    for (const product of loaded.values()) keep(product);
    return loaded;
  }

  return {
    /** Products by id, in the order asked, from the cache where it has them; unknown ids are left out. */
    async get(ids) {
      const at = now();
      const found = new Map<number, Product>();
      const missing: number[] = [];
      for (const id of ids) {
        const entry = kept?.get(id);
        const age = entry ? at - entry.loadedAt : Infinity;
        if (!entry || age >= maxAge) missing.push(id);
        else {
          found.set(id, entry.value);
          if (age >= maxAge / 2) refreshInBackground(id);
        }
      }
      if (kept) count(ids.length - missing.length, missing.length);
      if (missing.length > 0) for (const [id, product] of await loadAndKeep(missing)) found.set(id, product);
      return ids.flatMap((id) => {
        const product = found.get(id);
        return product ? [product] : [];
      });
    },
    keeper,
    clear() {
      generation++;
      kept?.clear();
      staleIds.clear();
    },
  };
}

/** How many products of one filter random picks are drawn from while the cache keeps them. */
export const RANDOM_PICK_POOL = 60;

/** `count` distinct picks from `ids`, leaving out `excludeId`. */
export function pickAtRandom(ids: readonly number[], count: number, excludeId?: number): number[] {
  const pool = excludeId === undefined ? [...ids] : ids.filter((id) => id !== excludeId);
  const picks = Math.min(count, pool.length);
  for (let i = 0; i < picks; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return pool.slice(0, picks);
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
    query.sort,
  ]);
}

/**
 * Search pages: the ids and counts only, never older than `seconds`; the product bodies come from
 * the product cache when the page is answered, so they are never older than its own seconds.
 */
function cachedSearchPages(
  seconds: number,
  load: (query: SearchQuery) => Promise<SearchHits>,
  count: CountLookup = countNothing,
  now: Clock = systemClock,
): { get: (query: SearchQuery) => Promise<SearchHits>; clear: () => void } {
  if (seconds <= 0) return { get: load, clear: () => undefined };
  const pages = new LRUCache<string, SearchHits>({ max: 2000, ttl: seconds * 1000, perf: { now }, ttlResolution: 0 });
  let generation = 0;
  return {
    async get(query) {
      const key = searchPageKey(query);
      let page = pages.get(key);
      count(page ? 1 : 0, page ? 0 : 1);
      if (!page) {
        const startedIn = generation;
        page = await load(query);
        if (generation === startedIn) pages.set(key, page);
      }
      return page;
    },
    clear() {
      generation++;
      pages.clear();
    },
  };
}

/** The catalogue's reads, each through its own cache (or straight through where its seconds are 0). */
export function createCatalogCache(options: CatalogCacheOptions, load: CatalogLoaders) {
  const seconds = options.catalogCacheSeconds;
  const counted = (cache: 'search' | 'catalogue'): CountLookup | undefined => {
    const countLookups = options.countLookups;
    return countLookups && ((hits, misses) => countLookups(cache, hits, misses));
  };
  const catalogue = counted('catalogue');
  const now = options.now ?? systemClock;
  const products = cachedProducts(seconds, load.products, catalogue, now);
  const productTypes = cachedLoader(seconds, { max: 1 }, () => load.productTypes(), catalogue, now);
  const brands = cachedLoader(seconds, { max: 1 }, () => load.brands(), catalogue, now);
  const productKeys = cachedLoader(
    seconds,
    { max: 20_000 },
    async (key: string) => ({ found: await load.productByKey(key) }),
    catalogue,
    now,
  );
  // Random picks and related products are drawn from a sample of each filter's products, kept and
  // renewed with the cache: from all of a large catalogue nearly every pick was a body not kept
  // yet, loaded from the database (docs/decisions/0020-checkout-first.md). Without the cache, every
  // call samples afresh, which is the same as drawing from all.
  const candidates = cachedLoader(
    seconds,
    { max: 1000 },
    async (key: string) => pickAtRandom(await load.candidates(candidateFilterOf(key)), RANDOM_PICK_POOL),
    catalogue,
    now,
  );
  const searchPages = cachedSearchPages(options.searchCacheSeconds, load.searchPage, counted('search'), now);
  return {
    products: products.get,
    productTypes: () => productTypes.get(0),
    brands: () => brands.get(0),
    productByKey: async (key: string) => (await productKeys.get(key)).found,
    /**
     * A product page: the product its key names and its body, from the key and product caches when
     * they have them, else read at once (one statement on PostgreSQL, where looking the key up and
     * then loading the body took two rounds: docs/decisions/0017-in-process-search-index.md) and
     * kept in both.
     */
    async productPage(key: string): Promise<ProductPage> {
      const known = productKeys.peek(key);
      if (known) {
        const found = known.found;
        if (found?.status !== 'published') return { found, product: undefined };
        const [product] = await products.get([found.id]);
        return { found, product };
      }
      const [keepKey, keepBody] = [productKeys.keeper(), products.keeper()];
      const page = await load.productPage(key);
      keepKey(key, { found: page.found });
      if (page.product) keepBody(page.product);
      return page;
    },
    candidates: (filter: CandidateFilter) => candidates.get(candidateKey(filter)),
    searchPage: searchPages.get,
    /** Forgets everything, so this instance's next answers read the database (a back-office write). */
    clear(): void {
      for (const cache of [products, productTypes, brands, productKeys, candidates, searchPages]) cache.clear();
    },
  };
}
