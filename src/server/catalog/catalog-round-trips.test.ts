import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productSchema, searchResponseSchema } from '../../contract/catalog.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * With the catalogue cache off or cold, each statement PostgreSQL is sent is one more round trip,
 * taken while searches keep the CPUs busy: there a product page and a page of search results read
 * their products' bodies, sizes, images and photos in one statement (a product page's key with
 * them). SQLite answers in process, where separate statements cost less than gathering them
 * (docs/decisions/0017-in-process-search-index.md, "product bodies in one statement").
 */
describe('statements a product page and a search page send', () => {
  let t: TestApp;
  let counting = false;
  let statements: string[] = [];
  const keys: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      log: (event) => {
        if (counting) statements.push(event.query.sql);
      },
    });
    const make = catalogFactory(t.db);
    const type = await make.type({ name: 'Dhols' });
    const brand = await make.brand({ name: 'Taalwala' });
    for (let i = 0; i < 12; i++) {
      const made = await make.product({
        typeId: type.id,
        brandId: brand.id,
        title: `Punjabi Dhol ${i}`,
        stocks: [
          { sizeName: 'Small', price: 9000 + i, stock: 3 },
          { sizeName: 'Large', price: 12000 + i, stock: 1 },
        ],
        images: [`/images/products/dhol-${i}-1.svg`, `/images/products/dhol-${i}-2.svg`],
      });
      keys.push(made.urlKey);
    }
  });
  afterAll(() => t.close());

  async function counted<T>(work: () => Promise<T>): Promise<{ answer: T; statements: string[] }> {
    statements = [];
    counting = true;
    try {
      return { answer: await work(), statements };
    } finally {
      counting = false;
    }
  }

  it('a product page: the product its key names, with its sizes, images and photos, in one statement on PostgreSQL', async () => {
    const { answer, statements: sent } = await counted(() =>
      t.app.inject({ method: 'GET', url: `/api/products/${keys[3]}` }),
    );
    const product = productSchema.parse(answer.json());
    expect(product.stocks.map((stock) => stock.price)).toEqual([9003, 12003]);
    expect(product.images.map((image) => image.imageUrl)).toEqual([
      '/images/products/dhol-3-1.svg',
      '/images/products/dhol-3-2.svg',
    ]);
    if (t.db.dialect === 'postgres') expect(sent.length, sent.join('\n')).toBe(1);
    // The key, the body, its sizes, images and photos.
    else expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(5);
  });

  it('a page of search results: every product on it in one statement on PostgreSQL', async () => {
    const search = () => t.app.inject({ method: 'POST', url: '/api/search', payload: { title: 'dhol', pageSize: 36 } });
    // Once, so the index has read the catalogue's change log.
    await search();
    const { answer, statements: sent } = await counted(search);
    const page = searchResponseSchema.parse(answer.json());
    expect(page.results).toHaveLength(12);
    expect(page.results.every((product) => product.stocks.length === 2 && product.images.length === 2)).toBe(true);
    // Besides the index's look at the change log and the type tree (read for the category filter).
    const bodies = sent.filter((text) => !/search_changes|from "product_types"/.test(text));
    if (t.db.dialect === 'postgres') expect(bodies.length, sent.join('\n')).toBe(1);
    else expect(bodies.length, sent.join('\n')).toBeLessThanOrEqual(4);
  });
});
