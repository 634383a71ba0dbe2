import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, type SearchRequest } from '../../contract/catalog.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

describe('POST /api/search', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp();
    const make = catalogFactory(t.db);
    const drums = await make.type({ name: 'Drums' });
    const dhols = await make.type({ name: 'Dhols', parentId: drums.id });
    const dholaks = await make.type({ name: 'Dholaks', parentId: drums.id });
    const keys = await make.type({ name: 'Keyboards' });
    const harmoniums = await make.type({ name: 'Harmoniums', parentId: keys.id });
    const stands = await make.type({ name: 'Stands' });
    const punjab = await make.brand({ name: 'Punjab Dhol House' });
    const mehta = await make.brand({ name: 'Mehta' });
    Object.assign(ids, {
      drums: drums.id,
      dhols: dhols.id,
      dholaks: dholaks.id,
      keys: keys.id,
      harmoniums: harmoniums.id,
      stands: stands.id,
      punjab: punjab.id,
      mehta: mehta.id,
    });
    const add = async (title: string, typeId: number, brandId: number, searchTags: string, description = '') =>
      (ids[title] = (await make.product({ title, typeId, brandId, searchTags, description })).id);
    await add('Punjabi Bhangra Dhol', dhols.id, punjab.id, 'Dhols Drums');
    await add('Bolt-Tuned Dhol', dhols.id, mehta.id, 'Dhols Drums');
    await add('Sheesham Dholki', dholaks.id, punjab.id, 'Dholaks Drums');
    await add('Wedding Dholak', dholaks.id, mehta.id, 'Dholaks Drums');
    await add('Scale Changer Harmonium', harmoniums.id, mehta.id, 'Harmoniums Keyboards');
    await add('Harmonium Stand', stands.id, mehta.id, 'Stands', 'Folds flat, holds any harmonium steady.');
    await add('Student Baja', harmoniums.id, punjab.id, 'Harmoniums Keyboards');
    for (let i = 1; i <= 40; i++)
      await make.product({ title: `Practice Pad ${i}`, typeId: stands.id, brandId: mehta.id });
  });
  afterAll(() => t.close());

  async function search(body: SearchRequest | Record<string, unknown>) {
    const response = await t.app.inject({ method: 'POST', url: '/api/search', payload: body });
    expect(response.statusCode).toBe(200);
    return searchResponseSchema.parse(response.json());
  }
  const titles = (r: { results: Array<{ title: string }> }) => r.results.map((p) => p.title);

  it('answers the request with results, totalResults and isNextPage, 36 to a page by default', async () => {
    const result = await search({});
    expect(result).toMatchObject({
      title: '',
      brandId: [],
      typeId: [],
      pageSize: 36,
      pageNumber: 1,
      totalResults: 47,
      isNextPage: true,
    });
    expect(result.results).toHaveLength(36);
  });

  it('pages on with pageNumber until isNextPage is false', async () => {
    const first = await search({ typeId: [ids.stands!], pageSize: 30, pageNumber: 1 });
    const second = await search({ typeId: [ids.stands!], pageSize: 30, pageNumber: 2 });
    expect(first).toMatchObject({ totalResults: 41, isNextPage: true });
    expect(second).toMatchObject({ totalResults: 41, isNextPage: false });
    expect(second.results).toHaveLength(11);
    const seen = [...first.results, ...second.results].map((p) => p.id);
    expect(new Set(seen).size).toBe(41);
    const beyond = await search({ typeId: [ids.stands!], pageSize: 30, pageNumber: 5 });
    expect(beyond).toMatchObject({ totalResults: 41, isNextPage: false, results: [] });
  });

  it('filters by a parent type including its children', async () => {
    expect(new Set(titles(await search({ typeId: [ids.drums!] })))).toEqual(
      new Set(['Punjabi Bhangra Dhol', 'Bolt-Tuned Dhol', 'Sheesham Dholki', 'Wedding Dholak']),
    );
    expect(new Set(titles(await search({ typeId: [ids.dhols!] })))).toEqual(
      new Set(['Punjabi Bhangra Dhol', 'Bolt-Tuned Dhol']),
    );
  });

  it('combines filters as OR within a kind and AND across kinds', async () => {
    expect(new Set(titles(await search({ typeId: [ids.dhols!, ids.harmoniums!] })))).toEqual(
      new Set(['Punjabi Bhangra Dhol', 'Bolt-Tuned Dhol', 'Scale Changer Harmonium', 'Student Baja']),
    );
    expect(new Set(titles(await search({ typeId: [ids.drums!, ids.keys!], brandId: [ids.punjab!] })))).toEqual(
      new Set(['Punjabi Bhangra Dhol', 'Sheesham Dholki', 'Student Baja']),
    );
    expect(titles(await search({ title: 'dhol', brandId: [ids.mehta!], typeId: [ids.dhols!] }))).toEqual([
      'Bolt-Tuned Dhol',
    ]);
  });

  it('matches words as prefixes and ranks title matches first', async () => {
    expect(new Set(titles(await search({ title: 'dho' })))).toEqual(
      new Set(['Punjabi Bhangra Dhol', 'Bolt-Tuned Dhol', 'Sheesham Dholki', 'Wedding Dholak']),
    );
    const dhol = titles(await search({ title: 'bolt' }));
    expect(dhol).toEqual(['Bolt-Tuned Dhol']);
    // A word found only in the description still finds the product.
    const flat = titles(await search({ title: 'flat' }));
    expect(flat).toEqual(['Harmonium Stand']);
  });

  it('ranks what a product is above a passing mention', async () => {
    // Both name a harmonium in the title; the stand is only an accessory for one.
    const result = titles(await search({ title: 'harmonium', typeId: [ids.harmoniums!, ids.stands!] }));
    expect(result).toHaveLength(3);
    expect(result.indexOf('Scale Changer Harmonium')).toBeLessThan(result.indexOf('Harmonium Stand'));
    expect(result.at(-1)).toBe('Harmonium Stand');
  });

  it('understands the domain synonyms and transliterations', async () => {
    expect(titles(await search({ title: 'baja' }))).toEqual(
      expect.arrayContaining(['Scale Changer Harmonium', 'Student Baja']),
    );
    expect(titles(await search({ title: 'peti' }))).toContain('Scale Changer Harmonium');
    expect(titles(await search({ title: 'dholki' }))).toEqual(
      expect.arrayContaining(['Sheesham Dholki', 'Wedding Dholak']),
    );
  });

  it('needs every word to match', async () => {
    expect(titles(await search({ title: 'wedding dholak' }))).toEqual(['Wedding Dholak']);
    expect(titles(await search({ title: 'wedding harmonium' }))).toEqual([]);
  });

  it('treats quotes, operators and SQL in the keyword as plain words', async () => {
    for (const title of ['"dhol', "dhol' OR 1=1 --", 'dhol*)) OR ((', '; drop table products', '!&|:*', 'NEAR(dhol)']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/search', payload: { title } });
      expect(response.statusCode).toBe(200);
    }
    expect((await search({ title: '!&|' })).totalResults).toBe(47);
  });

  it('keeps unknown type and brand ids as filters that match nothing', async () => {
    expect((await search({ typeId: [99999998] })).totalResults).toBe(0);
    expect((await search({ brandId: [99999998] })).totalResults).toBe(0);
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageSize: 2.5 }, 'pageSize'],
    [{ pageNumber: 0 }, 'pageNumber'],
    [{ pageNumber: '2' }, 'pageNumber'],
    [{ title: 42 }, 'title'],
    [{ title: 'x'.repeat(101) }, 'title'],
    [{ typeId: 'dhol' }, 'typeId'],
    [{ typeId: [-1] }, 'typeId.0'],
    [{ brandId: [1.5] }, 'brandId.0'],
    [{ brandId: Array.from({ length: 51 }, (_, i) => i + 1) }, 'brandId'],
  ])('answers %j with a 400 naming %s', async (body, field) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/search', payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('ignores answer fields sent back in the request', async () => {
    const plain = await search({ title: 'dhol' });
    const result = await search({ title: 'dhol', totalResults: 5, isNextPage: true, results: [{ price: 1 }] });
    expect(result.totalResults).toBe(plain.totalResults);
    expect(result.isNextPage).toBe(false);
  });
});
