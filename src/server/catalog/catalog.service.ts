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
import { MAX_ID } from '../../contract/basket-rules.ts';
import { cardPriceOf, TOP_LEVEL_PARENT_ID } from '../../contract/catalog-rules.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import {
  createCatalogCache,
  pickAtRandom,
  type CatalogCacheOptions,
  type ProductPage,
  type SearchHits,
} from './catalog-cache.ts';
import type {
  CatalogRepository,
  FoundProductRow,
  ImageRow,
  ProductBodies,
  ProductRow,
  StockRow,
} from './catalog.repository.ts';
import type { SearchEngine } from './search-engine/search-engine.ts';
import { createSearchTurns } from './search-engine/search-turns.ts';
import { withDescendants } from './type-tree.ts';
import { productImagesOf } from './photos/photo-views.ts';

/** The catalogue's rules: type trees, random and related picks, search paging, product shapes. */

function toProduct(row: ProductRow, stocks: StockRow[], images: ImageRow[], photos?: Product['images']): Product {
  const imageUrls = images.map((image) => image.image_url);
  // Uploaded photos take the drawings' place (docs/back-office.md#product-photos).
  const shown = photos ?? imageUrls.map((imageUrl) => ({ imageUrl }));
  const sizes = stocks.map((stock) => ({
    id: stock.id,
    productStockId: stock.id,
    productId: stock.product_id,
    productSizeName: stock.size_name,
    productTitle: row.title,
    stock: stock.stock,
    price: stock.price,
    priceReduction: stock.price_reduction,
    priceWithoutDiscount: stock.price_without_discount,
  }));
  return {
    id: row.id,
    title: row.title,
    urlKey: row.url_key,
    brandId: row.brand_id,
    brandName: row.brand_name,
    productTypeId: row.product_type_id,
    productTypeName: row.product_type_name,
    description: row.description,
    defaultImageUrl: shown[0]?.imageUrl ?? '',
    images: shown,
    seoTitle: row.seo_title,
    seoKeywords: row.seo_keywords,
    seoDescription: row.seo_description,
    stocks: sizes,
    // Worked out here from the sizes already read with the product (no query of its own): the
    // same stock levels as the sizes beside it, in every list and page a card is drawn from.
    cardPrice: cardPriceOf(sizes),
    ...(row.made_to_order === 1 ? { madeToOrder: true } : {}),
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

/**
 * Per type, the products of it and of every type below it: the index counts each product under its
 * own type only, and the category filter shows parents with their children's products.
 */
function typeFacets(
  counts: Map<number, number>,
  types: ReadonlyArray<{ id: number; parent_id: number }>,
): Array<{ id: number; count: number }> {
  const parentOf = new Map(types.map((type) => [type.id, type.parent_id]));
  const totals = new Map<number, number>();
  for (const [typeId, count] of counts) {
    // Up the tree, stopping at a loop should one ever be saved.
    const seen = new Set<number>();
    for (let id: number | undefined = typeId; id !== undefined && !seen.has(id); id = parentOf.get(id)) {
      seen.add(id);
      if (!parentOf.has(id)) break;
      totals.set(id, (totals.get(id) ?? 0) + count);
    }
  }
  return [...totals].map(([id, count]) => ({ id, count }));
}

/** A key in a path is an id when it is all digits, otherwise a URL key. */
function parseProductKey(key: string): { id: number } | { urlKey: string } {
  // An id past the database's integers names nothing; as a URL key (which always has a letter) it finds nothing.
  return /^\d{1,10}$/.test(key) && Number(key) <= MAX_ID ? { id: Number(key) } : { urlKey: key };
}

/**
 * A product page's key, looked up: the product, or the key it has now when the one asked for is
 * an old one (its page answers a 301). Shoppers never see a product that is not published.
 */
export type ProductLookUp = { product: Product } | { movedTo: string };

/** The answer when the search index's first build has not ended within its wait (ADR 0026). */
export function searchNotReady(): RefusedError {
  return new RefusedError(
    503,
    errorCodes.searchNotReady,
    'Search is starting up. Please try again in a few seconds.',
    undefined,
    5,
  );
}

/**
 * `searchEngine` answers every search from this instance's index (docs/decisions/0017-in-process-search-index.md,
 * docs/decisions/0026-one-search-engine.md); until its first build ends, a search waits for it.
 */
export function createCatalogService(
  repository: CatalogRepository,
  options: CatalogCacheOptions & {
    /**
     * Searches running at once on this instance (search-turns.ts): the shop runs one at a time on
     * either database (docs/decisions/0017-in-process-search-index.md).
     */
    searchesAtOnce?: number;
  },
  searchEngine: SearchEngine,
) {
  const inTurn = createSearchTurns(options.searchesAtOnce ?? 1);
  const cache = createCatalogCache(options, {
    products: loadProducts,
    productTypes: () => repository.listProductTypes(),
    brands: () => repository.listBrands(),
    productByKey: (key) => repository.findProductByKey(parseProductKey(key)),
    productPage: loadProductPage,
    candidates: (filter) => repository.productIds(filter),
    // Only a search worked out takes a turn: a page the cache holds is answered at once.
    searchPage: (query) => inTurn(() => searchPage(query)),
  });

  async function loadProducts(ids: number[]): Promise<Map<number, Product>> {
    return productsFrom(await repository.loadProducts(ids));
  }

  /** A product page's key and body in one read (catalog.repository.ts loadProductPage). */
  async function loadProductPage(key: string): Promise<ProductPage> {
    const { found, bodies } = await repository.loadProductPage(parseProductKey(key));
    return { found, product: found && productsFrom(bodies).get(found.id) };
  }

  function productsFrom({ products, stocks, images, photos }: ProductBodies): Map<number, Product> {
    const stocksOf = groupBy(stocks);
    const imagesOf = groupBy(images);
    const photosOf = productImagesOf(photos.photos, photos.variants);
    return new Map(
      products.map((row) => [
        row.id,
        toProduct(row, stocksOf.get(row.id) ?? [], imagesOf.get(row.id) ?? [], photosOf.get(row.id)),
      ]),
    );
  }

  async function typeTree(): Promise<ProductType[]> {
    const rows = await cache.productTypes();
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
  async function typesWithDescendants(typeIds: number[]): Promise<number[]> {
    return withDescendants(typeIds, await cache.productTypes());
  }

  /** The published product a key names (an old URL key names the product it was moved from). */
  async function shownProduct(key: string): Promise<FoundProductRow | undefined> {
    const found = await cache.productByKey(key);
    return found?.status === 'published' ? found : undefined;
  }

  async function lookUp(key: string): Promise<ProductLookUp> {
    const { found, product } = await cache.productPage(key);
    const shown = found?.status === 'published' ? found : undefined;
    if (shown && 'urlKey' in parseProductKey(key) && shown.url_key !== key) return { movedTo: shown.url_key };
    if (!shown || !product) throw new NotFoundError('No such product');
    return { product };
  }

  async function searchPage(query: SearchQuery): Promise<SearchHits> {
    // Read once for the filter and the facets: without the catalogue cache, each read is a query.
    const typeRows = await cache.productTypes();
    const types = withDescendants(query.typeId, typeRows);
    // Unknown type ids are kept in the answer but match nothing, like an unknown brand id does.
    const typeIds = query.typeId.length > 0 && types.length === 0 ? [0] : types;
    const offset = (query.pageNumber - 1) * query.pageSize;
    const indexed = await searchEngine.search({
      keyword: query.title,
      typeIds: query.typeId.length > 0 ? typeIds : undefined,
      brandIds: query.brandId.length > 0 ? query.brandId : undefined,
      sort: query.sort,
      offset,
      limit: query.pageSize,
    });
    if (!indexed) throw searchNotReady();
    const total = indexed.total;
    return {
      totalResults: total,
      isNextPage: query.pageNumber * query.pageSize < total,
      ids: indexed.ids,
      facets: {
        types: typeFacets(indexed.typeCounts, typeRows),
        brands: [...indexed.brandCounts].map(([id, count]) => ({ id, count })),
      },
    };
  }

  return {
    productTypes: typeTree,

    /** Forgets what this instance keeps, so its next answers show a change at once (a back-office write). */
    clearCaches: () => {
      cache.clear();
      searchEngine.markStale();
    },

    async brands(): Promise<Brand[]> {
      return cache.brands();
    },

    async countries(): Promise<Country[]> {
      return (await repository.listCountries()).map((row) => ({ id: row.id, name: row.name, isoCode: row.iso_code }));
    },

    async titles(): Promise<Title[]> {
      return repository.listTitles();
    },

    /** GET /api/products/{key} and the product pages: the product, or where it moved to. */
    lookUp,

    async randomByType(typeId: number, count: number): Promise<Product[]> {
      const types = await typesWithDescendants([typeId]);
      if (types.length === 0) throw new NotFoundError('No such product type');
      return cache.products(pickAtRandom(await cache.candidates({ typeIds: types }), count));
    },

    async randomByBrand(brandId: number, count: number): Promise<Product[]> {
      if (!(await cache.brands()).some((brand) => brand.id === brandId)) throw new NotFoundError('No such brand');
      return cache.products(pickAtRandom(await cache.candidates({ brandId }), count));
    },

    /** Products like the given one: its own type first, then its parent's other types, then any. */
    async related(key: string, count: number): Promise<Product[]> {
      const product = await shownProduct(key);
      if (!product) throw new NotFoundError('No such product');
      const picked = pickAtRandom(await cache.candidates({ typeIds: [product.product_type_id] }), count, product.id);
      if (picked.length < count) {
        const types = await cache.productTypes();
        const parentId = types.find((t) => t.id === product.product_type_id)?.parent_id ?? TOP_LEVEL_PARENT_ID;
        const siblings = types
          .filter((t) => t.parent_id === parentId && parentId !== TOP_LEVEL_PARENT_ID)
          .map((t) => t.id);
        const more =
          siblings.length > 0 ? pickAtRandom(await cache.candidates({ typeIds: siblings }), count, product.id) : [];
        const anything = pickAtRandom(await cache.candidates({}), count, product.id);
        for (const id of [...more, ...anything]) {
          if (picked.length >= count) break;
          if (!picked.includes(id)) picked.push(id);
        }
      }
      return cache.products(picked);
    },

    async search(query: SearchQuery): Promise<SearchResponse> {
      const echo = {
        title: query.title,
        brandId: query.brandId,
        typeId: query.typeId,
        pageSize: query.pageSize,
        pageNumber: query.pageNumber,
        sort: query.sort,
      };
      const { ids, ...counts } = await cache.searchPage(query);
      return { ...echo, ...counts, results: await cache.products(ids) };
    },

    /**
     * Basket lines' details by stock id, in the order asked; unknown ids (and a draft's) are left
     * out, and an archived product's have none left to buy (docs/back-office.md#catalogue).
     */
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
            stock: row.status === 'published' ? row.stock : 0,
            price: row.price,
            priceReduction: row.price_reduction,
            priceWithoutDiscount: row.price_without_discount,
            urlKey: row.url_key,
            imageUrl: row.photo_url ?? row.image_url ?? '',
          },
        ];
      });
    },

    async productUrlKeys(limit: number): Promise<string[]> {
      return (await repository.listProductUrlKeys(limit)).map((row) => row.url_key);
    },

    /** Active promotions on a product: today, the discounted stock entries. */
    async offers(productId: number): Promise<Offer[]> {
      const [product] = await cache.products([productId]);
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
