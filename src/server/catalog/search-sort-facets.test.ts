import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, type SearchRequest } from '../../contract/catalog.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { randomFor } from './demo/generate-products.ts';

/** Sort orders, facet counts and typos through POST /api/search (docs/rules.md#catalogue-and-search), on either database. */
describe('POST /api/search: sorting, counts and typos', () => {
  let t: TestApp;
  const types: Record<string, number> = {};
  const brands: number[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    const make = catalogFactory(t.db);
    types.drums = (await make.type({ name: 'Drums' })).id;
    types.dhols = (await make.type({ name: 'Dhols', parentId: types.drums })).id;
    types.tablas = (await make.type({ name: 'Tablas', parentId: types.drums })).id;
    types.keys = (await make.type({ name: 'Keyboards' })).id;
    for (const name of ['Raag', 'Mehta', 'Sur']) brands.push((await make.brand({ name })).id);
    // A generated catalogue: words, types, brands and prices drawn the same way every run.
    const random = randomFor(42);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const leafTypes = [types.dhols!, types.tablas!, types.keys!, types.drums!];
    for (let i = 0; i < 60; i++) {
      await make.product({
        title: `${pick(['Brass', 'Wooden', 'Travel', 'Concert'])} ${pick(['Dhol', 'Tabla', 'Harmonium', 'Case'])} ${i}`,
        description: pick(['with a padded bag', 'hand tuned', 'with spare strings', '']),
        typeId: pick(leafTypes),
        brandId: pick(brands),
        stocks: [{ price: 1000 + Math.floor(random() * 40) * 250 }, { price: 20_000 }],
      });
    }
  });
  afterAll(() => t.close());

  async function search(body: SearchRequest) {
    const response = await t.app.inject({ method: 'POST', url: '/api/search', payload: body });
    expect(response.statusCode).toBe(200);
    return searchResponseSchema.parse(response.json());
  }
  /** Every product a search finds, page by page. */
  async function everything(body: SearchRequest) {
    const found = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await search({ ...body, pageSize: 7, pageNumber });
      found.push(...page.results);
      if (!page.isNextPage) return found;
    }
  }
  const lowest = (p: { stocks: Array<{ price: number }> }) => Math.min(...p.stocks.map((s) => s.price));

  it('orders by price low to high, high to low, and newest first, page after page', async () => {
    for (const title of ['', 'brass', 'tabla']) {
      const byRelevance = await everything({ title });
      const ascending = await everything({ title, sort: 'price-asc' });
      const descending = await everything({ title, sort: 'price-desc' });
      const newest = await everything({ title, sort: 'newest' });
      expect(byRelevance.length).toBeGreaterThan(0);
      for (const list of [ascending, descending, newest]) {
        expect(new Set(list.map((p) => p.id))).toEqual(new Set(byRelevance.map((p) => p.id)));
      }
      expect(ascending.map(lowest)).toEqual(ascending.map(lowest).sort((a, b) => a - b));
      expect(descending.map(lowest)).toEqual(descending.map(lowest).sort((a, b) => b - a));
      expect(newest.map((p) => p.id)).toEqual(newest.map((p) => p.id).sort((a, b) => b - a));
    }
    expect((await search({ sort: 'newest' })).sort).toBe('newest');
  });

  it('counts types (with their children) and brands as a brute-force count of filtered searches does', async () => {
    for (const title of ['', 'dhol', 'brass', 'bag']) {
      for (const [typeId, brandId] of [
        [[], []],
        [[types.drums!], []],
        [[], [brands[1]!]],
        [
          [types.tablas!, types.keys!],
          [brands[0]!, brands[2]!],
        ],
      ]) {
        const answer = await search({ title, typeId, brandId });
        const counted = (list: Array<{ id: number; count: number }>, id: number) =>
          list.find((facet) => facet.id === id)?.count ?? 0;
        for (const type of Object.values(types)) {
          const alone = await search({ title, typeId: [type], brandId, pageSize: 1 });
          expect(counted(answer.facets!.types, type)).toBe(alone.totalResults);
        }
        for (const brand of brands) {
          const alone = await search({ title, typeId, brandId: [brand], pageSize: 1 });
          expect(counted(answer.facets!.brands, brand)).toBe(alone.totalResults);
        }
      }
    }
  });

  it('finds a product with one letter of a long word wrong, missing or swapped, and by a synonym', async () => {
    const harmoniums = await search({ title: 'harmonium' });
    expect(harmoniums.totalResults).toBeGreaterThan(0);
    for (const typo of ['harmonum', 'harmonuim', 'harmonixm', 'peti']) {
      expect((await search({ title: typo })).totalResults).toBe(harmoniums.totalResults);
    }
    expect((await search({ title: 'tabal' })).totalResults).toBe((await search({ title: 'tabla' })).totalResults);
  });

  it('answers a page beyond the last with none, and an unknown order with a 400 naming sort', async () => {
    const deep = await search({ title: 'brass', pageNumber: 40 });
    expect(deep).toMatchObject({ results: [], isNextPage: false });
    expect(deep.totalResults).toBeGreaterThan(0);
    const response = await t.app.inject({ method: 'POST', url: '/api/search', payload: { sort: 'cheapest' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain('sort');
  });
});
