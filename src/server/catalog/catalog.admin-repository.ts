import { sql, type Kysely, type Selectable } from 'kysely';
import type { ProductListFilter } from '../../contract/admin/catalogue.ts';
import type { ProductStatus } from '../../contract/catalog-rules.ts';
import { dialectOfHandle } from '../db/database.ts';
import type { Database, ProductStockTable, ProductTable } from '../db/schema.ts';

/**
 * The back office's catalogue SQL (docs/back-office.md#catalogue): every product whatever its
 * status, its sizes, old URL keys, types and brands. Each function takes the database or the
 * caller's transaction.
 */

type Db = Kysely<Database>;
export type ProductRecord = Selectable<ProductTable>;
export type SizeRecord = Selectable<ProductStockTable>;

/** `like` wildcards typed by staff are matched as themselves. */
function likeContaining(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listProducts(
  db: Db,
  query: Omit<ProductListFilter, 'typeId'> & { typeIds?: number[] | undefined },
) {
  let filtered = db
    .selectFrom('products as p')
    .innerJoin('product_types as t', 't.id', 'p.product_type_id')
    .innerJoin('brands as b', 'b.id', 'p.brand_id');
  if (query.q) filtered = filtered.where(sql<boolean>`lower(p.title) like ${likeContaining(query.q)} escape '\\'`);
  if (query.typeIds) filtered = filtered.where('p.product_type_id', 'in', query.typeIds.length ? query.typeIds : [0]);
  if (query.brandId !== undefined) filtered = filtered.where('p.brand_id', '=', query.brandId);
  if (query.status !== undefined) filtered = filtered.where('p.status', '=', query.status);

  let page = filtered.select((eb) => [
    'p.id',
    'p.title',
    'p.url_key',
    'p.status',
    'p.product_type_id',
    't.name as type_name',
    'p.brand_id',
    'b.name as brand_name',
    eb
      .selectFrom('product_stocks as s')
      .select((s) => s.fn.countAll<number | string>().as('n'))
      .whereRef('s.product_id', '=', 'p.id')
      .as('sizes'),
    eb
      .selectFrom('product_stocks as s')
      .select((s) => s.fn.coalesce(s.fn.sum<number | string>('s.stock'), sql<number>`0`).as('n'))
      .whereRef('s.product_id', '=', 'p.id')
      .as('stock'),
    eb
      .selectFrom('product_stocks as s')
      .select((s) => s.fn.min('s.price').as('n'))
      .whereRef('s.product_id', '=', 'p.id')
      .as('lowest_price'),
  ]);
  page = query.sort === 'title' ? page.orderBy(sql`lower(p.title)`).orderBy('p.id') : page.orderBy('p.id', 'desc');
  const [rows, counted] = await Promise.all([
    page
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
  ]);
  return { rows, total: Number(counted?.total ?? 0) };
}

export function findProduct(db: Db, id: number) {
  return db
    .selectFrom('products as p')
    .innerJoin('product_types as t', 't.id', 'p.product_type_id')
    .innerJoin('brands as b', 'b.id', 'p.brand_id')
    .selectAll('p')
    .select(['t.name as type_name', 'b.name as brand_name'])
    .where('p.id', '=', id)
    .executeTakeFirst();
}

/** Every type's id, name and parent: for the tree walks (type-tree.ts). */
export function typeRows(db: Db) {
  return db
    .selectFrom('product_types')
    .select(['id', 'name', 'parent_id', 'sort_order'])
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** A product's sizes in their order, each saying whether an order ever took it. */
export function findSizes(db: Db, productId: number) {
  return db
    .selectFrom('product_stocks as s')
    .selectAll('s')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('order_lines as l').select('l.id').whereRef('l.product_stock_id', '=', 's.id'))
        .as('ordered'),
    )
    .where('s.product_id', '=', productId)
    .orderBy('s.sort_order')
    .orderBy('s.id')
    .execute();
}

export function findImages(db: Db, productId: number) {
  return db
    .selectFrom('product_images')
    .select('image_url')
    .where('product_id', '=', productId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export async function findOldUrlKeys(db: Db, productId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('product_url_redirects')
    .select('old_key')
    .where('product_id', '=', productId)
    .orderBy('created_at', 'desc')
    .orderBy('old_key')
    .execute();
  return rows.map((row) => row.old_key);
}

/** Who answers to a URL key: a product whose key it is now, or one that had it before. */
export async function urlKeyHolder(
  db: Db,
  key: string,
): Promise<{ productId: number; title: string; current: boolean } | undefined> {
  const current = await db.selectFrom('products').select(['id', 'title']).where('url_key', '=', key).executeTakeFirst();
  if (current) return { productId: current.id, title: current.title, current: true };
  const old = await db
    .selectFrom('product_url_redirects as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select(['p.id', 'p.title'])
    .where('r.old_key', '=', key)
    .executeTakeFirst();
  return old ? { productId: old.id, title: old.title, current: false } : undefined;
}

/** URL keys of the form `{base}` or `{base}-{n}` in use now or before, for finding a free one. */
export async function urlKeysLike(db: Db, base: string): Promise<Set<string>> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [current, old] = await Promise.all([
    db
      .selectFrom('products')
      .select('url_key as key')
      .where(sql<boolean>`url_key like ${pattern} escape '\\'`)
      .execute(),
    db
      .selectFrom('product_url_redirects')
      .select('old_key as key')
      .where(sql<boolean>`old_key like ${pattern} escape '\\'`)
      .execute(),
  ]);
  return new Set([...current, ...old].map((row) => row.key));
}

export type ProductWrite = Omit<ProductRecord, 'id' | 'status' | 'tags' | 'made_to_order'> & {
  status: ProductStatus;
  tags: string;
  made_to_order?: number;
};

export async function insertProduct(db: Db, row: ProductWrite): Promise<number> {
  const inserted = await db.insertInto('products').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateProduct(db: Db, id: number, row: Partial<ProductWrite>): Promise<void> {
  await db.updateTable('products').set(row).where('id', '=', id).execute();
}

/** The old key now answers with a 301 to the product; a key taken back by a product stops redirecting. */
export async function keepOldUrlKey(db: Db, oldKey: string, productId: number, at: string): Promise<void> {
  await db.deleteFrom('product_url_redirects').where('old_key', '=', oldKey).execute();
  await db
    .insertInto('product_url_redirects')
    .values({ old_key: oldKey, product_id: productId, created_at: at })
    .execute();
}

export async function dropOldUrlKey(db: Db, key: string): Promise<void> {
  await db.deleteFrom('product_url_redirects').where('old_key', '=', key).execute();
}

export interface SizeWrite {
  size_name: string;
  price: number;
  price_reduction: number;
  price_without_discount: number;
  sort_order: number;
  /** Its parcel facts (migration 0037); left out, they stay as they are. */
  weight_grams?: number | null;
  packaging_id?: number | null;
  length_mm?: number | null;
  width_mm?: number | null;
  height_mm?: number | null;
}

export async function insertSize(db: Db, productId: number, size: SizeWrite & { stock: number }): Promise<number> {
  const inserted = await db
    .insertInto('product_stocks')
    .values({ ...size, product_id: productId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Names and prices only: the stock column is never written here (adjustments change it by deltas). */
export async function updateSize(db: Db, productId: number, sizeId: number, size: SizeWrite): Promise<void> {
  await db
    .updateTable('product_stocks')
    .set(size)
    .where('id', '=', sizeId)
    .where('product_id', '=', productId)
    .execute();
}

/** Removes sizes no order ever took; answers how many went. */
export async function deleteUnorderedSizes(db: Db, productId: number, sizeIds: number[]): Promise<number> {
  if (sizeIds.length === 0) return 0;
  const result = await db
    .deleteFrom('product_stocks')
    .where('product_id', '=', productId)
    .where('id', 'in', sizeIds)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('order_lines as l').select('l.id').whereRef('l.product_stock_id', '=', 'product_stocks.id')),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- Types and brands -------------------------------------------------------------------------

export function listTypes(db: Db) {
  return db
    .selectFrom('product_types as t')
    .select((eb) => [
      't.id',
      't.name',
      't.parent_id',
      't.sort_order',
      eb
        .selectFrom('products as p')
        .select((p) => p.fn.countAll<number | string>().as('n'))
        .whereRef('p.product_type_id', '=', 't.id')
        .as('products'),
    ])
    .orderBy('t.sort_order')
    .orderBy('t.id')
    .execute();
}

export function listBrands(db: Db) {
  return db
    .selectFrom('brands as b')
    .select((eb) => [
      'b.id',
      'b.name',
      'b.sort_order',
      eb
        .selectFrom('products as p')
        .select((p) => p.fn.countAll<number | string>().as('n'))
        .whereRef('p.brand_id', '=', 'b.id')
        .as('products'),
    ])
    .orderBy('b.sort_order')
    .orderBy('b.name')
    .execute();
}

export function findBrand(db: Db, id: number) {
  return db.selectFrom('brands').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countProducts(db: Db, by: { typeId: number } | { brandId: number }): Promise<number> {
  const [column, value] =
    'typeId' in by ? (['product_type_id', by.typeId] as const) : (['brand_id', by.brandId] as const);
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(column, '=', value)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Types and brands have the ids the storefront links to (docs/rules.md#catalogue-and-search), so
 * their ids are not generated by the database: a new one takes the next after the highest. Two
 * staff adding at once queue on a lock (SQLite's write lock does the same by itself).
 */
async function nextId(db: Db, table: 'product_types' | 'brands'): Promise<number> {
  if (dialectOfHandle(db) === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext(${`catalogue ids ${table}`}))`.execute(db);
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0) + 1;
}

/** The next place at the end of a list: a type's siblings (its parent's children), or the brands. */
async function nextSortOrder(db: Db, list: { parentId: number } | 'brands'): Promise<number> {
  const row =
    list === 'brands'
      ? await db
          .selectFrom('brands')
          .select((eb) => eb.fn.max('sort_order').as('n'))
          .executeTakeFirst()
      : await db
          .selectFrom('product_types')
          .select((eb) => eb.fn.max('sort_order').as('n'))
          .where('parent_id', '=', list.parentId)
          .executeTakeFirst();
  return row?.n === null || row?.n === undefined ? 0 : Number(row.n) + 1;
}

export async function insertType(db: Db, type: { name: string; parentId: number }): Promise<number> {
  const id = await nextId(db, 'product_types');
  const sortOrder = await nextSortOrder(db, { parentId: type.parentId });
  await db
    .insertInto('product_types')
    .values({ id, name: type.name, parent_id: type.parentId, sort_order: sortOrder })
    .execute();
  return id;
}

export async function updateType(
  db: Db,
  id: number,
  change: { name: string; parentId: number; moved: boolean },
): Promise<void> {
  const sortOrder = change.moved ? await nextSortOrder(db, { parentId: change.parentId }) : undefined;
  await db
    .updateTable('product_types')
    .set({
      name: change.name,
      parent_id: change.parentId,
      ...(sortOrder !== undefined ? { sort_order: sortOrder } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteType(db: Db, id: number): Promise<void> {
  await db.deleteFrom('product_types').where('id', '=', id).execute();
}

export async function insertBrand(db: Db, name: string): Promise<number> {
  const id = await nextId(db, 'brands');
  const sortOrder = await nextSortOrder(db, 'brands');
  await db.insertInto('brands').values({ id, name, sort_order: sortOrder }).execute();
  return id;
}

export async function renameBrand(db: Db, id: number, name: string): Promise<void> {
  await db.updateTable('brands').set({ name }).where('id', '=', id).execute();
}

export async function deleteBrand(db: Db, id: number): Promise<void> {
  await db.deleteFrom('brands').where('id', '=', id).execute();
}

/** Writes a list's order as its positions: ids[0] first. */
export async function setOrder(db: Db, table: 'product_types' | 'brands', ids: number[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.updateTable(table).set({ sort_order: position }).where('id', '=', id).execute();
  }
}

/**
 * Rewrites the indexed search tags of the products of these types (or of this brand): each
 * product's own tags, then `suffix` (its type's and brand's names: catalog/search-index.ts). One
 * statement per type and brand pair, however many products it holds.
 */
export async function rewriteSearchTags(
  db: Db,
  products: { typeIds: number[] } | { brandId: number },
  suffixOf: (typeId: number, brandId: number) => string,
): Promise<void> {
  let pairs = db.selectFrom('products').select(['product_type_id', 'brand_id']).distinct();
  pairs =
    'typeIds' in products
      ? pairs.where('product_type_id', 'in', products.typeIds.length ? products.typeIds : [0])
      : pairs.where('brand_id', '=', products.brandId);
  for (const pair of await pairs.execute()) {
    const suffix = suffixOf(pair.product_type_id, pair.brand_id);
    await db
      .updateTable('products')
      .set({
        search_tags: sql`case when trim(tags) = '' then ${suffix} else trim(tags) || ' ' || ${suffix} end`,
      })
      .where('product_type_id', '=', pair.product_type_id)
      .where('brand_id', '=', pair.brand_id)
      .execute();
  }
}
