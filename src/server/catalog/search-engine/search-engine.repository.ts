import { sql, type Kysely } from 'kysely';
import { dialectOfHandle } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/**
 * What the in-process search index reads (docs/decisions/0017-in-process-search-index.md): the
 * published products' searchable columns, page by page, and the log of changes (migration 0020).
 */

export interface IndexedProductRow {
  id: number;
  title: string;
  search_tags: string;
  search_text: string;
  product_type_id: number;
  brand_id: number;
  status: string;
  lowest_price: number | string | null;
}

export function createSearchEngineRepository(db: Kysely<Database>) {
  function productRows() {
    return db.selectFrom('products as p').select([
      'p.id',
      'p.title',
      'p.search_tags',
      'p.search_text',
      'p.product_type_id',
      'p.brand_id',
      'p.status',
      (eb) =>
        eb
          .selectFrom('product_stocks as s')
          .select((inner) => inner.fn.min('s.price').as('price'))
          .whereRef('s.product_id', '=', 'p.id')
          .as('lowest_price'),
    ]);
  }

  return {
    /** The newest change's id, 0 when there is none. */
    async lastChange(): Promise<number> {
      const row = await db
        .selectFrom('search_changes')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    /** The oldest change still kept, 0 when there is none. */
    async firstChange(): Promise<number> {
      const row = await db
        .selectFrom('search_changes')
        .select((eb) => eb.fn.min('id').as('id'))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    /** Changes after `cursor`, and those among `missing` (ids not seen yet below it), in id order. */
    changesSince(cursor: number, missing: readonly number[], limit: number) {
      return db
        .selectFrom('search_changes')
        .select(['id', 'product_id'])
        .where((eb) =>
          missing.length > 0 ? eb.or([eb('id', '>', cursor), eb('id', 'in', missing)]) : eb('id', '>', cursor),
        )
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** Which of these change ids exist (to tell taken ids not yet committed from those in the log). */
    async changeIdsBetween(after: number, upTo: number): Promise<number[]> {
      const rows = await db
        .selectFrom('search_changes')
        .select('id')
        .where('id', '>', after)
        .where('id', '<=', upTo)
        .execute();
      return rows.map((row) => row.id);
    },

    async publishedCount(): Promise<number> {
      const row = await db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'published')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Published products after `afterId`, in id order: a page of a full build. */
    publishedAfter(afterId: number, limit: number): Promise<IndexedProductRow[]> {
      return productRows()
        .where('p.status', '=', 'published')
        .where('p.id', '>', afterId)
        .orderBy('p.id')
        .limit(limit)
        .execute();
    },

    /** These products as they are now, whatever their status; deleted ones are left out. */
    products(ids: number[]): Promise<IndexedProductRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return productRows().where('p.id', 'in', ids).execute();
    },

    /** Forgets changes up to `id`: every index built after them has them. */
    async pruneChanges(upTo: number): Promise<void> {
      await sql`delete from search_changes where id <= ${upTo}`.execute(db);
    },
  };
}

export type SearchEngineRepository = ReturnType<typeof createSearchEngineRepository>;

/**
 * Reads in one snapshot of the database, on a connection of its own. Only for a connection of a
 * build's own (index-build.process.ts), never the serving one: SQLite's single connection would take every other request's
 * statements into the transaction.
 */
export function inOneSnapshot<T>(
  db: Kysely<Database>,
  read: (snapshot: SearchEngineRepository) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql
      .raw(dialectOfHandle(db) === 'postgres' ? 'begin isolation level repeatable read read only' : 'begin')
      .execute(connection);
    try {
      return await read(createSearchEngineRepository(connection));
    } finally {
      await sql`commit`.execute(connection);
    }
  });
}
