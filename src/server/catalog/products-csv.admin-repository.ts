import { setImmediate } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { dialectOfHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { ProductWrite, SizeWrite } from './catalog.admin-repository.ts';

/**
 * The products CSV's SQL (docs/back-office.md#csv-import-and-export): the export a batch of
 * products at a time, and the import's reads and writes many rows to a statement, so 10,000 rows
 * take tens of statements rather than tens of thousands. Writes take the import's transaction.
 */

type Db = Kysely<Database>;

/** Rows per statement: far below SQLite's and PostgreSQL's limits on bound values. */
const CHUNK = 500;

/**
 * The items a statement's worth at a time, with a turn of the event loop before each after the
 * first: SQLite's driver answers synchronously, and twenty 500-key reads back to back held every
 * other request for a quarter of a second (issue 31).
 */
async function* chunks<T>(items: readonly T[]): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += CHUNK) {
    if (start > 0) await setImmediate();
    yield items.slice(start, start + CHUNK);
  }
}

/** The next `limit` products after id `afterId` (in id order), with their brand's name, and their sizes in order. */
export async function exportBatch(db: Db, afterId: number, limit: number) {
  const products = await db
    .selectFrom('products as p')
    .innerJoin('brands as b', 'b.id', 'p.brand_id')
    .select([
      'p.id',
      'p.url_key',
      'p.title',
      'p.status',
      'p.product_type_id',
      'b.name as brand_name',
      'p.description',
      'p.seo_title',
      'p.seo_keywords',
      'p.seo_description',
      'p.tags',
    ])
    .where('p.id', '>', afterId)
    .orderBy('p.id')
    .limit(limit)
    .execute();
  const sizes = await sizesOfProducts(
    db,
    products.map((product) => product.id),
  );
  return { products, sizes };
}

export function brandRows(db: Db) {
  return db.selectFrom('brands').select(['id', 'name']).execute();
}

export async function productsByUrlKeys(db: Db, keys: readonly string[]) {
  const found = [];
  for await (const some of chunks(keys)) {
    found.push(...(await db.selectFrom('products').selectAll().where('url_key', 'in', some).execute()));
  }
  return found;
}

/** The sizes of these products, each product's in its order. */
export async function sizesOfProducts(db: Db, productIds: readonly number[]) {
  const found = [];
  for await (const some of chunks(productIds)) {
    found.push(
      ...(await db
        .selectFrom('product_stocks')
        .selectAll()
        .where('product_id', 'in', some)
        .orderBy('product_id')
        .orderBy('sort_order')
        .orderBy('id')
        .execute()),
    );
  }
  return found;
}

/**
 * On PostgreSQL, locks every size of these products until the transaction ends, in id order (the
 * order a checkout locks stock in, so the two cannot deadlock). An import that then reads their
 * levels reads the latest, and no checkout or other import changes them before it commits.
 * SQLite needs nothing: its write transactions run one at a time.
 */
export async function lockSizesOfProducts(db: Db, productIds: readonly number[]): Promise<void> {
  if (dialectOfHandle(db) !== 'postgres' || productIds.length === 0) return;
  await sql`select id from product_stocks where product_id = any(${[...productIds]}::int[]) order by id for update`.execute(
    db,
  );
}

/** Which of these keys are a product's old key, with the product's title and current key. */
export async function oldUrlKeysAmong(db: Db, keys: readonly string[]) {
  const found = [];
  for await (const some of chunks(keys)) {
    found.push(
      ...(await db
        .selectFrom('product_url_redirects as r')
        .innerJoin('products as p', 'p.id', 'r.product_id')
        .select(['r.old_key', 'p.title', 'p.url_key'])
        .where('r.old_key', 'in', some)
        .execute()),
    );
  }
  return found;
}

/** New products, many to a statement; answers each one's id by its URL key. */
export async function insertProducts(db: Db, rows: readonly ProductWrite[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for await (const some of chunks(rows)) {
    const inserted = await db.insertInto('products').values(some).returning(['id', 'url_key']).execute();
    for (const row of inserted) ids.set(row.url_key, row.id);
  }
  return ids;
}

/** New sizes with their opening stock, many to a statement. */
export async function insertSizes(
  db: Db,
  rows: ReadonlyArray<SizeWrite & { product_id: number; stock: number }>,
): Promise<void> {
  for await (const some of chunks(rows)) await db.insertInto('product_stocks').values(some).execute();
}
