import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockListSchema } from '../../contract/admin/stock.ts';
import { searchResponseSchema } from '../../contract/catalog.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * One search engine (docs/decisions/0026-one-search-engine.md): the shop's search and the back
 * office's stock search read the same in-process index, so the same words find the same products
 * whichever page asks and whichever database the shop runs on.
 */
describe('one search engine', () => {
  let t: TestApp;
  let staff: { cookie: string; email: string };
  // Digits after the letters, so every query below finds this test's products alone.
  const word = `Pakhawaj${Date.now()}`;
  const titles = [
    `${word} Cushioned Stool`,
    `${word} Tabla Dayan`,
    `${word} Tabla Bayan Cushion`,
    `${word} Harmonium Cover`,
  ];

  beforeAll(async () => {
    t = await createTestApp();
    staff = await staffMember(t, 'staff');
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    for (const title of titles) await make.product({ typeId: type.id, brandId: brand.id, title });
  });
  afterAll(() => t.close());

  async function stockSearch(q: string): Promise<string[]> {
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/admin/stock?q=${encodeURIComponent(q)}&pageSize=100`,
      headers: { cookie: staff.cookie },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return [...new Set(stockListSchema.parse(answer.json()).rows.map((row) => row.title))].sort();
  }

  async function shopSearch(title: string): Promise<string[]> {
    const answer = await t.app.inject({ method: 'POST', url: '/api/search', payload: { title, pageSize: 100 } });
    expect(answer.statusCode, answer.body).toBe(200);
    return searchResponseSchema
      .parse(answer.json())
      .results.map((product) => product.title)
      .sort();
  }

  it('finds "Cushioned" from the back office\'s stock page when "cushione" is typed', async () => {
    // "cushione" begins no word of the catalogue, so it matches those one letter away: "cushion",
    // the stem of "Cushioned" and the word itself.
    expect(await stockSearch(`${word} cushione`)).toEqual([`${word} Cushioned Stool`, `${word} Tabla Bayan Cushion`]);
  });

  it.each(['cushione', 'cushioned', 'cushion', 'tabla dayan', 'tabl', 'harmonum', 'baja', 'cover tabla', 'dayan only'])(
    'answers "%s" with the same products in the shop and on the stock page',
    async (words) => {
      const q = `${word} ${words}`;
      const shop = await shopSearch(q);
      expect(await stockSearch(q)).toEqual(shop);
    },
  );
});
