import { afterEach, describe, expect, it } from 'vitest';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import type { SearchQuery } from '../../contract/catalog.ts';
import { createCatalogRepository } from './catalog.repository.ts';
import { createCatalogService } from './catalog.service.ts';
import type { SearchEngine } from './search-engine/search-engine.ts';

describe('the search cache', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function totalFor(app: TestApp, payload: Record<string, unknown>): Promise<number> {
    return (await app.app.inject({ method: 'POST', url: '/api/search', payload })).json().totalResults;
  }

  it('reuses a search page for SEARCH_CACHE_SECONDS, shared by requests that differ only in case and order', async () => {
    const clock = manualClock();
    t = await createTestApp({ env: { SEARCH_CACHE_SECONDS: '1' }, now: clock.now });
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    await make.product({ title: 'Cached Dhol', typeId: type.id, brandId: brand.id });
    expect(await totalFor(t, { title: 'cached', typeId: [type.id] })).toBe(1);

    await make.product({ title: 'Cached Dhol Two', typeId: type.id, brandId: brand.id });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/search',
      payload: { title: '  CACHED ', typeId: [type.id] },
    });
    expect(again.json()).toMatchObject({ title: 'CACHED', totalResults: 1 });

    clock.advance(999);
    expect(await totalFor(t, { title: 'cached', typeId: [type.id] })).toBe(1);
    clock.advance(2);
    expect(await totalFor(t, { title: 'cached', typeId: [type.id] })).toBe(2);
  });

  it('is off when SEARCH_CACHE_SECONDS is 0, the test default', async () => {
    t = await createTestApp();
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    await make.product({ title: 'Fresh Tabla', typeId: type.id, brandId: brand.id });
    expect(await totalFor(t, { typeId: [type.id] })).toBe(1);
    await make.product({ title: 'Fresh Tabla Two', typeId: type.id, brandId: brand.id });
    expect(await totalFor(t, { typeId: [type.id] })).toBe(2);
  });

  it('answers a cached page at once, without waiting behind a search still being worked out', async () => {
    t = await createTestApp();
    let finishSlowSearch = (): void => undefined;
    const slowSearchHeld = new Promise<void>((resolve) => (finishSlowSearch = resolve));
    // An index whose answer to "slow" takes as long as the test says; every other answer is at once.
    const engine = {
      async search(query: { keyword: string }) {
        if (query.keyword === 'slow') await slowSearchHeld;
        return { ids: [], total: 0, typeCounts: new Map(), brandCounts: new Map() };
      },
      markStale: () => undefined,
    } as unknown as SearchEngine;
    const catalog = createCatalogService(
      createCatalogRepository(t.db.kysely),
      { searchCacheSeconds: 60, catalogCacheSeconds: 60, searchesAtOnce: 1 },
      engine,
    );
    const searchFor = (title: string): SearchQuery => ({
      title,
      brandId: [],
      typeId: [],
      pageSize: 20,
      pageNumber: 1,
      sort: 'relevance',
    });

    await catalog.search(searchFor('quick'));
    const slow = catalog.search(searchFor('slow'));
    // No timer: were the cached page to wait behind the slow search, which ends only after it, this
    // would never answer and the test would fail by its timeout.
    const cachedAgain = await catalog.search(searchFor('quick'));
    finishSlowSearch();
    await slow;
    expect(cachedAgain.totalResults).toBe(0);
  });
});
