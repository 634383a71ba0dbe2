import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProductStatus } from '../../contract/catalog-rules.ts';
import { createEmptyDatabase, type TestDatabase } from '../../../test/helpers/test-db.ts';
import { migrateToLatest } from '../db/migrate.ts';
import * as publishedSearchIndex from '../db/migrations/0016-published-search-index.ts';
import { createCatalogRepository } from './catalog.repository.ts';

/** The keyword index holds what shoppers may find (docs/rules.md#catalogue-and-search), on either database. */
describe('the keyword index', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('0016 leaves drafts and archived products out of the keyword index that earlier migrations put them in', async () => {
    database = await createEmptyDatabase();
    const db = database.connect();
    await migrateToLatest(db);
    const k = db.kysely;
    await k.insertInto('product_types').values({ id: 1, name: 'Percussion', parent_id: -1, sort_order: 0 }).execute();
    await k.insertInto('brands').values({ id: 1, name: 'Raag' }).execute();
    const product = (urlKey: string, status: ProductStatus) => ({
      url_key: urlKey,
      title: `Kanjira ${urlKey}`,
      brand_id: 1,
      product_type_id: 1,
      description: '',
      seo_title: '',
      seo_keywords: '',
      seo_description: '',
      search_tags: '',
      search_text: '',
      status,
    });
    await k
      .insertInto('products')
      .values([product('shown', 'published'), product('draft', 'draft'), product('gone', 'archived')])
      .execute();
    if (db.dialect === 'sqlite') {
      // What the triggers before 0016 did: every product went into the index whatever its status.
      await sql`insert into products_fts(rowid, title, search_tags, search_text)
        select id, title, search_tags, search_text from products where status <> 'published'`.execute(k);
    }
    await publishedSearchIndex.up(k, db.dialect);

    const shown = await k.selectFrom('products').select('id').where('url_key', '=', 'shown').executeTakeFirstOrThrow();
    const search = (keyword: string) =>
      createCatalogRepository(k).searchProductIds({
        keyword,
        typeIds: [],
        brandIds: [],
        limit: 10,
        offset: 0,
      });
    expect(await search('kanjira')).toEqual({ ids: [shown.id], total: 1 });
    expect(await search('draft')).toEqual({ ids: [], total: 0 });

    // And it follows a product published later.
    await k.updateTable('products').set({ status: 'published' }).where('url_key', '=', 'draft').execute();
    expect((await search('kanjira')).total).toBe(2);
  });
});
