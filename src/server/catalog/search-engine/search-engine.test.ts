import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogFactory } from '../../../../test/helpers/catalog-factory.ts';
import { createTestDb, type TestDatabase } from '../../../../test/helpers/test-db.ts';
import type { Db } from '../../db/database.ts';
import { createSearchEngine, type SearchEngineOptions } from './search-engine.ts';
import { createSearchEngineRepository, type SearchEngineRepository } from './search-engine.repository.ts';

/**
 * The search index follows the database through the change log (migration 0020;
 * docs/decisions/0017-in-process-search-index.md), whoever wrote the change.
 */
describe('the search engine', () => {
  let db: Db;
  let database: TestDatabase;
  let make: ReturnType<typeof catalogFactory>;
  let typeId: number;
  let brandId: number;
  beforeEach(async () => {
    ({ db, database } = await createTestDb());
    make = catalogFactory(db);
    typeId = (await make.type({ name: 'Percussion' })).id;
    brandId = (await make.brand({ name: 'Raag' })).id;
  });
  afterEach(() => database.drop());

  const engineWith = (options: Partial<SearchEngineOptions> = {}) => {
    const engine = createSearchEngine(createSearchEngineRepository(db.kysely), {
      maxLagMs: 0,
      ...options,
    });
    engine.start();
    return engine;
  };
  const find = async (
    engine: ReturnType<typeof engineWith>,
    keyword: string,
    sort: 'relevance' | 'price-asc' = 'relevance',
  ) => (await engine.search({ keyword, sort, offset: 0, limit: 50 }))?.ids;

  it('finds products added, renamed, repriced, archived and deleted after it was built', async () => {
    const kanjira = await make.product({ title: 'Kanjira', typeId, brandId, stocks: [{ price: 3000 }] });
    const engine = engineWith();
    expect(await find(engine, 'kanjira')).toEqual([kanjira.id]);

    const ghatam = await make.product({ title: 'Ghatam', typeId, brandId, stocks: [{ price: 2000 }] });
    const draft = await make.product({ title: 'Ghatam Draft', typeId, brandId, status: 'draft' });
    expect(await find(engine, 'ghatam')).toEqual([ghatam.id]);

    await db.kysely.updateTable('products').set({ title: 'Clay Ghatam' }).where('id', '=', ghatam.id).execute();
    expect(await find(engine, 'clay')).toEqual([ghatam.id]);
    expect(await find(engine, 'kanjira')).toEqual([kanjira.id]);

    // The price order follows a size repriced.
    expect(await find(engine, '', 'price-asc')).toEqual([ghatam.id, kanjira.id]);
    await db.kysely.updateTable('product_stocks').set({ price: 1000 }).where('product_id', '=', kanjira.id).execute();
    expect(await find(engine, '', 'price-asc')).toEqual([kanjira.id, ghatam.id]);

    await db.kysely.updateTable('products').set({ status: 'archived' }).where('id', '=', kanjira.id).execute();
    await db.kysely.updateTable('products').set({ status: 'published' }).where('id', '=', draft.id).execute();
    expect(await find(engine, '')).toEqual([ghatam.id, draft.id]);

    await db.kysely.deleteFrom('product_images').where('product_id', '=', ghatam.id).execute();
    await db.kysely.deleteFrom('product_stocks').where('product_id', '=', ghatam.id).execute();
    await db.kysely.deleteFrom('products').where('id', '=', ghatam.id).execute();
    expect(await find(engine, '')).toEqual([draft.id]);
  });

  it('lists every published product a keyword finds, as the search finds them, typos included', async () => {
    const cushioned = await make.product({ title: 'Cushioned Stool', typeId, brandId });
    const cushion = await make.product({ title: 'Tabla Cushion', typeId, brandId });
    await make.product({ title: 'Cushion Draft', typeId, brandId, status: 'draft' });
    await make.product({ title: 'Harmonium', typeId, brandId });
    const engine = engineWith();
    for (const keyword of ['cushione', 'cushion', 'cushoin', 'tabla cushion', 'harmonum', 'baja']) {
      const all = await engine.search({ keyword, sort: 'relevance', offset: 0, limit: 100 });
      expect([...((await engine.matchingIds(keyword)) ?? [])]).toEqual([...(all?.ids ?? [])].sort((a, b) => a - b));
    }
    expect([...((await engine.matchingIds('cushione')) ?? [])]).toEqual([cushioned.id, cushion.id]);
    // No words, no products (the stock page's rule), where a search without words lists them all.
    expect([...((await engine.matchingIds('  !! ')) ?? [])]).toEqual([]);
  });

  it('waits for its first build, and answers nothing (not another engine) if it has not ended in time', async () => {
    const kanjira = await make.product({ title: 'Kanjira', typeId, brandId });
    // Started and searched at once: the search waits for the build instead of answering otherwise.
    const engine = engineWith();
    expect(await find(engine, 'kanjira')).toEqual([kanjira.id]);
    expect(await engine.built(0)).toBe(true);
    // A build that never ends (its database hung): the search gives up after the wait.
    const hung = createSearchEngineRepository(db.kysely);
    const never = new Promise<never>(() => undefined);
    const stuck = createSearchEngine({ ...hung, lastChange: () => never } as SearchEngineRepository, {
      maxLagMs: 0,
      firstBuildWaitMs: 1,
    });
    stuck.start();
    // Not ready (/readyz answers 503): a load balancer sends it nothing to wait.
    expect(await stuck.built(1)).toBe(false);
    expect(await stuck.search({ keyword: 'kanjira', sort: 'relevance', offset: 0, limit: 10 })).toBeUndefined();
    expect(await stuck.matchingIds('kanjira')).toBeUndefined();
  });

  it('reads the log at most once in its lag, and at once after this instance changed the catalogue', async () => {
    const engine = engineWith({ maxLagMs: 60_000 });
    expect(await find(engine, 'kanjira')).toEqual([]);
    const kanjira = await make.product({ title: 'Kanjira', typeId, brandId });
    // Another instance's change waits for the lag...
    expect(await find(engine, 'kanjira')).toEqual([]);
    // ...this instance's own shows at once.
    engine.markStale();
    expect(await find(engine, 'kanjira')).toEqual([kanjira.id]);
  });

  it('builds a fresh index once many products changed, answering the same throughout', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await make.product({ title: `Tabla ${i}`, typeId, brandId })).id);
    const engine = engineWith({ rebuildAfter: 3 });
    expect(await find(engine, 'tabla')).toHaveLength(6);
    for (const id of ids.slice(0, 4)) {
      await db.kysely
        .updateTable('products')
        .set({ title: `Dholak ${id}` })
        .where('id', '=', id)
        .execute();
    }
    expect(await find(engine, 'tabla')).toEqual(ids.slice(4));
    // The fresh index is built in the background; changes made meanwhile still show.
    await db.kysely.updateTable('products').set({ title: 'Tabla again' }).where('id', '=', ids[0]!).execute();
    for (let round = 0; round < 5; round++) {
      expect(new Set(await find(engine, 'tabla'))).toEqual(new Set([ids[0], ...ids.slice(4)]));
      expect(new Set(await find(engine, 'dholak'))).toEqual(new Set(ids.slice(1, 4)));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('builds in a child process, with the same answers as one built here', async () => {
    for (let i = 0; i < 8; i++) {
      await make.product({ title: `Tabla ${i}`, typeId, brandId, stocks: [{ price: 1000 + ((i * 7) % 5) * 100 }] });
      await make.product({ title: `Dhol ${i}`, typeId, brandId, description: 'with a tabla key' });
    }
    const here = engineWith();
    const errors: unknown[] = [];
    const inChild = engineWith({
      separateBuild: { connection: db.reopen, fromProducts: 0 },
      onError: (e) => errors.push(e),
    });
    for (const keyword of ['', 'tabla', 'dhol', 'tabal']) {
      for (const sort of ['relevance', 'price-asc'] as const) {
        const query = { keyword, sort, offset: 0, limit: 50 };
        const answer = await inChild.search(query);
        expect(answer?.total).toBeGreaterThan(0);
        expect(answer).toEqual(await here.search(query));
      }
    }
    // Built there, not here after the child failed.
    expect(errors).toEqual([]);
  });
});
