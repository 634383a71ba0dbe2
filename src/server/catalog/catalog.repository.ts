import { sql, type Kysely } from 'kysely';
import type { ProductStatus } from '../../contract/catalog-rules.ts';
import { dialectOfHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import {
  listPhotoVariants,
  photoRowsQuery,
  type PhotoRow,
  type ProductIdList,
  type VariantRow,
} from './photos/photos.repository.ts';

/**
 * All of the storefront catalogue's SQL. Rows come back in the database's shape; the service maps
 * them. Shoppers see published products only (docs/back-office.md#catalogue): every read here that
 * lists or loads products says so.
 */

export interface ProductRow {
  id: number;
  url_key: string;
  title: string;
  brand_id: number;
  brand_name: string;
  product_type_id: number;
  product_type_name: string;
  description: string;
  seo_title: string;
  seo_keywords: string;
  seo_description: string;
  /** 1: made to order, not returnable for a change of mind (migration 0032). */
  made_to_order?: number;
}

export interface StockRow {
  id: number;
  product_id: number;
  size_name: string;
  price: number;
  price_reduction: number;
  price_without_discount: number;
  stock: number;
}

export interface ImageRow {
  product_id: number;
  image_url: string;
}

export interface FoundProductRow {
  id: number;
  product_type_id: number;
  url_key: string;
  status: ProductStatus;
}

export interface ProductBodies {
  products: ProductRow[];
  stocks: StockRow[];
  images: ImageRow[];
  photos: { photos: PhotoRow[]; variants: VariantRow[] };
}

const emptyBodies = (): ProductBodies => ({
  products: [],
  stocks: [],
  images: [],
  photos: { photos: [], variants: [] },
});

export function createCatalogRepository(db: Kysely<Database>) {
  const dialect = dialectOfHandle(db);
  /** Some products' bodies (published only), sizes, images and photos: one query each. */
  function bodyQueries(ids: ProductIdList) {
    return {
      products: db
        .selectFrom('products as p')
        .innerJoin('brands as b', 'b.id', 'p.brand_id')
        .innerJoin('product_types as t', 't.id', 'p.product_type_id')
        .select([
          'p.id',
          'p.url_key',
          'p.title',
          'p.brand_id',
          'b.name as brand_name',
          'p.product_type_id',
          't.name as product_type_name',
          'p.description',
          'p.seo_title',
          'p.seo_keywords',
          'p.seo_description',
          'p.made_to_order',
        ])
        .where('p.id', 'in', ids)
        .where('p.status', '=', 'published'),
      stocks: db
        .selectFrom('product_stocks')
        .select([
          'id',
          'product_id',
          'size_name',
          'price',
          'price_reduction',
          'price_without_discount',
          'stock',
          'sort_order',
        ])
        .where('product_id', 'in', ids)
        .orderBy('sort_order')
        .orderBy('id'),
      images: db
        .selectFrom('product_images')
        .select(['id', 'product_id', 'image_url', 'sort_order'])
        .where('product_id', 'in', ids)
        .orderBy('sort_order')
        .orderBy('id'),
      // Uploaded photos, shown instead of the drawings when a product has any.
      photos: photoRowsQuery(db, ids),
    };
  }

  /** The product an id or a URL key names, whatever its status. */
  function namedQuery(key: { id: number } | { urlKey: string }) {
    return db
      .selectFrom('products as p')
      .select(['p.id', 'p.product_type_id', 'p.url_key', 'p.status'])
      .where((eb) => ('id' in key ? eb('p.id', '=', key.id) : eb('p.url_key', '=', key.urlKey)));
  }

  /**
   * Bodies, and on a product page the product its key names, read at once
   * (docs/decisions/0017-in-process-search-index.md, "product bodies in one statement"). On
   * PostgreSQL every statement is a round trip on a pooled connection, and with the catalogue cache
   * cold, four at once took four backends' turns on busy CPUs: there they are gathered as JSON arrays
   * of one statement. SQLite answers in process without waiting, and building and parsing the JSON
   * cost more than the separate statements (0.86 against 0.58 ms a page of 36 products).
   */
  async function readBodies(
    wanted: { ids: number[] } | { key: { id: number } | { urlKey: string } },
  ): Promise<ProductBodies & { found: FoundProductRow[] }> {
    const key = 'key' in wanted ? wanted.key : undefined;
    // A product page's body is named by its key, in the same statement.
    const ids = 'ids' in wanted ? wanted.ids : namedQuery(wanted.key).clearSelect().select('p.id');
    const queries = bodyQueries(ids);
    let read: {
      found: FoundProductRow[];
      products: ProductRow[];
      stocks: Array<StockRow & { sort_order: number }>;
      images: Array<ImageRow & { id: number; sort_order: number }>;
      photos: PhotoRow[];
    };
    if (dialect === 'postgres') {
      const gathered = await db
        .selectNoFrom([
          ...(key ? [postgresJsonArrayFrom(namedQuery(key)).as('found')] : []),
          postgresJsonArrayFrom(queries.products).as('products'),
          postgresJsonArrayFrom(queries.stocks).as('stocks'),
          postgresJsonArrayFrom(queries.images).as('images'),
          postgresJsonArrayFrom(queries.photos).as('photos'),
        ])
        .executeTakeFirstOrThrow();
      // The driver parses JSON, and JSON keeps these columns' types (numbers, strings).
      read = gathered as unknown as typeof read;
      read.found ??= [];
      // json_agg keeps its sorted subquery's order in practice, which PostgreSQL does not promise.
      const bySortOrder = (a: { sort_order: number; id: number }, b: { sort_order: number; id: number }) =>
        a.sort_order - b.sort_order || a.id - b.id;
      read.stocks.sort(bySortOrder);
      read.images.sort(bySortOrder);
      read.photos.sort((a, b) => a.position - b.position || a.id - b.id);
    } else {
      read = {
        found: key ? await namedQuery(key).execute() : [],
        products: await queries.products.execute(),
        stocks: await queries.stocks.execute(),
        images: await queries.images.execute(),
        photos: await queries.photos.execute(),
      };
    }
    const { found, products, stocks, images, photos } = read;
    // Most products have no photos: then there are no variants to look for.
    const variants = await listPhotoVariants(
      db,
      photos.map((photo) => photo.id),
    );
    return { found, products, stocks, images, photos: { photos, variants } };
  }

  /** The product one of its old URL keys names (it answers a redirect). */
  function findByOldKey(urlKey: string): Promise<FoundProductRow | undefined> {
    return db
      .selectFrom('product_url_redirects as r')
      .innerJoin('products as p', 'p.id', 'r.product_id')
      .select(['p.id', 'p.product_type_id', 'p.url_key', 'p.status'])
      .where('r.old_key', '=', urlKey)
      .executeTakeFirst();
  }

  return {
    listProductTypes() {
      return db
        .selectFrom('product_types')
        .select(['id', 'name', 'parent_id'])
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
    },

    listBrands() {
      return db.selectFrom('brands').select(['id', 'name']).orderBy('sort_order').orderBy('name').execute();
    },

    listCountries() {
      return db.selectFrom('countries').select(['id', 'name', 'iso_code']).orderBy('name').execute();
    },

    listTitles() {
      return db.selectFrom('titles').select(['id', 'name']).orderBy('sort_order').execute();
    },

    /** The product an id, a URL key or one of its old URL keys names, whatever its status. */
    async findProductByKey(key: { id: number } | { urlKey: string }): Promise<FoundProductRow | undefined> {
      const columns = ['p.id', 'p.product_type_id', 'p.url_key', 'p.status'] as const;
      if ('id' in key)
        return db.selectFrom('products as p').select(columns).where('p.id', '=', key.id).executeTakeFirst();
      return (
        (await db.selectFrom('products as p').select(columns).where('p.url_key', '=', key.urlKey).executeTakeFirst()) ??
        (await findByOldKey(key.urlKey))
      );
    },

    /** Product bodies with their sizes, images and photos (readBodies). */
    async loadProducts(ids: number[]): Promise<ProductBodies> {
      if (ids.length === 0) return emptyBodies();
      const { found: _none, ...bodies } = await readBodies({ ids });
      return bodies;
    },

    /**
     * A product page's reads at once (readBodies): the product a key names, whatever its status,
     * and its body if it is published. Only an old URL key (a redirect, rare) is looked up after.
     */
    async loadProductPage(
      key: { id: number } | { urlKey: string },
    ): Promise<{ found: FoundProductRow | undefined; bodies: ProductBodies }> {
      const {
        found: [found],
        ...bodies
      } = await readBodies({ key });
      if (!found && 'urlKey' in key) return { found: await findByOldKey(key.urlKey), bodies: emptyBodies() };
      return { found, bodies };
    },

    /** Every product id matching the filter, for picking at random from (docs/rules.md#catalogue-and-search). */
    async productIds(filter: { typeIds?: number[]; brandId?: number }): Promise<number[]> {
      let query = db.selectFrom('products').select('id').where('status', '=', 'published');
      if (filter.typeIds) query = query.where('product_type_id', 'in', filter.typeIds);
      if (filter.brandId !== undefined) query = query.where('brand_id', '=', filter.brandId);
      return (await query.execute()).map((row) => row.id);
    },

    listProductUrlKeys(limit: number) {
      return db
        .selectFrom('products')
        .select('url_key')
        .where('status', '=', 'published')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    loadStocks(ids: number[]) {
      return loadStockRows(db, ids);
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

/**
 * Stock entries by id with their product's title, URL key, status and first image: for the cart's
 * look-ups and for pricing a basket. Takes a transaction or the database alike. A draft's entries
 * are left out, as unknown ids are: a draft's name is not public yet (docs/back-office.md#catalogue).
 * An archived product's are answered, for the cart to say it is no longer sold.
 */
export async function loadStockRows(db: Kysely<Database>, ids: number[]) {
  if (ids.length === 0) return [];
  return stockRowsQuery(db, ids).execute();
}

/** loadStockRows' query, for a caller to send within a larger one (a commit's pricing facts). */
export function stockRowsQuery(db: Kysely<Database>, ids: number[]) {
  return db
    .selectFrom('product_stocks as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select([
      's.id',
      's.product_id',
      's.size_name',
      's.price',
      's.price_reduction',
      's.price_without_discount',
      's.stock',
      'p.title',
      'p.url_key',
      'p.status',
      'p.made_to_order',
      (eb) =>
        eb
          .selectFrom('product_images as i')
          .select('i.image_url')
          .whereRef('i.product_id', '=', 'p.id')
          .orderBy('i.sort_order')
          .orderBy('i.id')
          .limit(1)
          .as('image_url'),
      // The main uploaded photo's smallest WebP, which the basket's lines show before a drawing.
      (eb) =>
        eb
          .selectFrom('product_photos as ph')
          .innerJoin('product_photo_variants as v', 'v.photo_id', 'ph.id')
          .select(sql<string>`'/images/photos/' || ph.photo_key || '-' || v.width || '.webp'`.as('url'))
          .whereRef('ph.product_id', '=', 'p.id')
          .where('v.format', '=', 'webp')
          .orderBy('ph.position')
          .orderBy('ph.id')
          .orderBy('v.width')
          .limit(1)
          .as('photo_url'),
    ])
    .where((eb) => (ids.length > 0 ? eb('s.id', 'in', ids) : eb.lit(false)))
    .where('p.status', '!=', 'draft');
}
