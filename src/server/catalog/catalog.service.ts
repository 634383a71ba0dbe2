import type {
  Brand,
  Country,
  Offer,
  Product,
  ProductType,
  SearchQuery,
  SearchResponse,
  StockDetail,
  Title,
} from '../../contract/catalog.ts';
import { TOP_LEVEL_PARENT_ID } from '../../contract/catalog-rules.ts';
import { LRUCache } from 'lru-cache';
import { NotFoundError } from '../errors.ts';
import { keywordWords } from './search-terms.ts';
import type { CatalogRepository, ImageRow, ProductRow, StockRow } from './catalog.repository.ts';

/** The catalogue's rules: type trees, random and related picks, search paging, product shapes. */

function toProduct(row: ProductRow, stocks: StockRow[], images: ImageRow[]): Product {
  const imageUrls = images.map((image) => image.image_url);
  return {
    id: row.id,
    title: row.title,
    urlKey: row.url_key,
    brandId: row.brand_id,
    brandName: row.brand_name,
    productTypeId: row.product_type_id,
    productTypeName: row.product_type_name,
    description: row.description,
    defaultImageUrl: imageUrls[0] ?? '',
    images: imageUrls.map((imageUrl) => ({ imageUrl })),
    seoTitle: row.seo_title,
    seoKeywords: row.seo_keywords,
    seoDescription: row.seo_description,
    stocks: stocks.map((stock) => ({
      id: stock.id,
      productStockId: stock.id,
      productId: stock.product_id,
      productSizeName: stock.size_name,
      productTitle: row.title,
      stock: stock.stock,
      price: stock.price,
      priceReduction: stock.price_reduction,
      priceWithoutDiscount: stock.price_without_discount,
    })),
  };
}

function groupBy<T extends { product_id: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.product_id);
    if (group) group.push(row);
    else groups.set(row.product_id, [row]);
  }
  return groups;
}

/** A key in a path is an id when it is all digits, otherwise a URL key. */
function parseProductKey(key: string): { id: number } | { urlKey: string } {
  return /^\d{1,10}$/.test(key) ? { id: Number(key) } : { urlKey: key };
}

export interface CatalogOptions {
  /** Seconds one instance reuses a search page (docs/decisions/0002-search-cache.md). */
  searchCacheSeconds: number;
  /**
   * Seconds one instance reuses product bodies, the type tree and the ids random picks are drawn
   * from (docs/decisions/0006-catalogue-cache.md). Stock look-ups and basket checks never use it.
   */
  catalogCacheSeconds: number;
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

/** `count` distinct picks from `ids`, leaving out `excludeId`. */
function pickAtRandom(ids: readonly number[], count: number, excludeId?: number): number[] {
  const pool = excludeId === undefined ? [...ids] : ids.filter((id) => id !== excludeId);
  const picks = Math.min(count, pool.length);
  for (let i = 0; i < picks; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return pool.slice(0, picks);
}

type SearchPage = Pick<SearchResponse, 'totalResults' | 'isNextPage' | 'results'>;

export function createCatalogService(repository: CatalogRepository, options: CatalogOptions) {
  const searchCache =
    options.searchCacheSeconds > 0
      ? new LRUCache<string, SearchPage>({ max: 2000, ttl: options.searchCacheSeconds * 1000 })
      : undefined;

  const ttl = options.catalogCacheSeconds * 1000;
  /**
   * Product bodies by id. An entry older than the TTL is still served once while a background
   * load refreshes it (several stale ids in one batch), so a crowd never waits on a wave of
   * expiries; an entry is dropped outright at three times the TTL.
   */
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
            await loadProducts(batch);
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
  async function loadProducts(ids: number[]): Promise<Map<number, Product>> {
    const { products, stocks, images } = await repository.loadProducts(ids);
    const stocksOf = groupBy(stocks);
    const imagesOf = groupBy(images);
    const loaded = new Map<number, Product>();
    const loadedAt = Date.now();
    for (const row of products) {
      const product = toProduct(row, stocksOf.get(row.id) ?? [], imagesOf.get(row.id) ?? []);
      loaded.set(row.id, product);
      productCache?.set(row.id, { product, loadedAt });
    }
    return loaded;
  }
  const productTypes = cachedLoader(options.catalogCacheSeconds, 1, () => repository.listProductTypes());
  const productKey = cachedLoader(options.catalogCacheSeconds, 20_000, async (key: string) => ({
    found: await repository.findProductId(parseProductKey(key)),
  }));
  /** Ids random picks are drawn from, per filter: `types:1,2` or `brand:7` or `all`. */
  const candidates = cachedLoader(options.catalogCacheSeconds, 1000, (filter: string) => {
    const [kind, list] = filter.split(':');
    if (kind === 'types') return repository.productIds({ typeIds: (list ?? '').split(',').map(Number) });
    if (kind === 'brand') return repository.productIds({ brandId: Number(list) });
    return repository.productIds({});
  });
  const typesFilter = (typeIds: number[]) => `types:${[...typeIds].sort((a, b) => a - b).join(',')}`;

  /** Products by id, in the order asked, from the cache where it has them; unknown ids are left out. */
  async function productsInOrder(ids: number[]): Promise<Product[]> {
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
    if (missing.length > 0) for (const [id, product] of await loadProducts(missing)) found.set(id, product);
    return ids.flatMap((id) => {
      const product = found.get(id);
      return product ? [product] : [];
    });
  }

  async function typeTree(): Promise<ProductType[]> {
    const rows = await productTypes(0);
    const nodes = new Map<number, ProductType>(
      rows.map((row) => [row.id, { id: row.id, name: row.name, parentId: row.parent_id, childTypes: [] }]),
    );
    const roots: ProductType[] = [];
    for (const node of nodes.values()) {
      const parent = nodes.get(node.parentId);
      if (parent) parent.childTypes.push(node);
      else roots.push(node);
    }
    return roots;
  }

  /** The given types with every descendant: filtering by a parent includes its children. */
  async function withDescendants(typeIds: number[]): Promise<{ ids: number[]; unknown: number[] }> {
    const rows = await productTypes(0);
    const known = new Set(rows.map((row) => row.id));
    const result = new Set<number>();
    const pending = typeIds.filter((id) => known.has(id));
    while (pending.length > 0) {
      const id = pending.pop() as number;
      if (result.has(id)) continue;
      result.add(id);
      for (const row of rows) if (row.parent_id === id) pending.push(row.id);
    }
    return { ids: [...result], unknown: typeIds.filter((id) => !known.has(id)) };
  }

  async function searchPage(query: SearchQuery): Promise<SearchPage> {
    const types = await withDescendants(query.typeId);
    // Unknown type ids are kept in the answer but match nothing, like an unknown brand id does.
    const typeIds = query.typeId.length > 0 && types.ids.length === 0 ? [0] : types.ids;
    const { ids, total } = await repository.searchProductIds({
      keyword: query.title,
      typeIds,
      brandIds: query.brandId,
      limit: query.pageSize,
      offset: (query.pageNumber - 1) * query.pageSize,
    });
    return {
      totalResults: total,
      isNextPage: query.pageNumber * query.pageSize < total,
      results: await productsInOrder(ids),
    };
  }

  return {
    productTypes: typeTree,

    async brands(): Promise<Brand[]> {
      return repository.listBrands();
    },

    async countries(): Promise<Country[]> {
      return (await repository.listCountries()).map((row) => ({ id: row.id, name: row.name, isoCode: row.iso_code }));
    },

    async titles(): Promise<Title[]> {
      return repository.listTitles();
    },

    async product(key: string): Promise<Product> {
      const { found } = await productKey(key);
      const [product] = found ? await productsInOrder([found.id]) : [];
      if (!product) throw new NotFoundError('No such product');
      return product;
    },

    async randomByType(typeId: number, count: number): Promise<Product[]> {
      const types = await withDescendants([typeId]);
      if (types.ids.length === 0) throw new NotFoundError('No such product type');
      return productsInOrder(pickAtRandom(await candidates(typesFilter(types.ids)), count));
    },

    async randomByBrand(brandId: number, count: number): Promise<Product[]> {
      if (!(await repository.brandExists(brandId))) throw new NotFoundError('No such brand');
      return productsInOrder(pickAtRandom(await candidates(`brand:${brandId}`), count));
    },

    /** Products like the given one: its own type first, then its parent's other types, then any. */
    async related(key: string, count: number): Promise<Product[]> {
      const { found: product } = await productKey(key);
      if (!product) throw new NotFoundError('No such product');
      const picked = pickAtRandom(await candidates(typesFilter([product.product_type_id])), count, product.id);
      if (picked.length < count) {
        const types = await productTypes(0);
        const parentId = types.find((t) => t.id === product.product_type_id)?.parent_id ?? TOP_LEVEL_PARENT_ID;
        const siblings = types
          .filter((t) => t.parent_id === parentId && parentId !== TOP_LEVEL_PARENT_ID)
          .map((t) => t.id);
        const more =
          siblings.length > 0 ? pickAtRandom(await candidates(typesFilter(siblings)), count, product.id) : [];
        const anything = pickAtRandom(await candidates('all'), count, product.id);
        for (const id of [...more, ...anything]) {
          if (picked.length >= count) break;
          if (!picked.includes(id)) picked.push(id);
        }
      }
      return productsInOrder(picked);
    },

    async search(query: SearchQuery): Promise<SearchResponse> {
      const echo = {
        title: query.title,
        brandId: query.brandId,
        typeId: query.typeId,
        pageSize: query.pageSize,
        pageNumber: query.pageNumber,
      };
      // Requests that differ only in case, spacing or filter order share one cached page.
      const key = JSON.stringify([
        keywordWords(query.title),
        [...new Set(query.typeId)].sort((a, b) => a - b),
        [...new Set(query.brandId)].sort((a, b) => a - b),
        query.pageSize,
        query.pageNumber,
      ]);
      let page = searchCache?.get(key);
      if (!page) {
        page = await searchPage(query);
        searchCache?.set(key, page);
      }
      return { ...echo, ...page };
    },

    /** Basket lines' details by stock id, in the order asked; unknown ids are left out. */
    async stockDetails(ids: number[]): Promise<StockDetail[]> {
      const rows = await repository.loadStocks([...new Set(ids)]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return [...new Set(ids)].flatMap((id) => {
        const row = byId.get(id);
        if (!row) return [];
        return [
          {
            id: row.id,
            productStockId: row.id,
            productId: row.product_id,
            productSizeName: row.size_name,
            productTitle: row.title,
            stock: row.stock,
            price: row.price,
            priceReduction: row.price_reduction,
            priceWithoutDiscount: row.price_without_discount,
            urlKey: row.url_key,
            imageUrl: row.image_url ?? '',
          },
        ];
      });
    },

    async productUrlKeys(limit: number): Promise<string[]> {
      return (await repository.listProductUrlKeys(limit)).map((row) => row.url_key);
    },

    /** Active promotions on a product: today, the discounted stock entries. */
    async offers(productId: number): Promise<Offer[]> {
      const [product] = await productsInOrder([productId]);
      if (!product) throw new NotFoundError('No such product');
      return product.stocks
        .filter((stock) => stock.priceReduction > 0)
        .map((stock) => ({
          productId: product.id,
          productStockId: stock.id,
          description: `Save ${stock.priceReduction}% on ${product.title} (${stock.productSizeName})`,
          priceReduction: stock.priceReduction,
          price: stock.price,
          priceWithoutDiscount: stock.priceWithoutDiscount,
        }));
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
