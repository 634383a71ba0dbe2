import { afterEach, describe, expect, it } from 'vitest';
import type { ProductStatus } from '../../contract/catalog-rules.ts';
import { createEmptyDatabase, type TestDatabase } from '../../../test/helpers/test-db.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createSearchEngine } from './search-engine/search-engine.ts';
import { createSearchEngineRepository } from './search-engine/search-engine.repository.ts';

/**
 * The search index holds what shoppers may find (docs/rules.md#catalogue-and-search), on either
 * database. Migration 0016 once took drafts and archived products out of SQLite's full-text index;
 * that index is gone (docs/decisions/0026-one-search-engine.md) and the in-process one holds
 * published products alone, built and kept by the same code on both databases.
 */
describe('the keyword index', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('leaves drafts and archived products out, and follows a product published later', async () => {
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

    const engine = createSearchEngine(createSearchEngineRepository(k), { maxLagMs: 0 });
    engine.start();
    const shown = await k.selectFrom('products').select('id').where('url_key', '=', 'shown').executeTakeFirstOrThrow();
    const search = async (keyword: string) => {
      const answer = await engine.search({ keyword, sort: 'relevance', limit: 10, offset: 0 });
      return { ids: answer?.ids, total: answer?.total };
    };
    expect(await search('kanjira')).toEqual({ ids: [shown.id], total: 1 });
    expect(await search('draft')).toEqual({ ids: [], total: 0 });
    expect(await search('gone')).toEqual({ ids: [], total: 0 });

    // And it follows a product published later.
    await k.updateTable('products').set({ status: 'published' }).where('url_key', '=', 'draft').execute();
    expect((await search('kanjira')).total).toBe(2);
    engine.stop();
  });
});
