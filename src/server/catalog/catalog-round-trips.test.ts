import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productSchema, searchResponseSchema } from '../../contract/catalog.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { statementCounter } from '../../../test/helpers/statements.ts';
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
  const { log, counted } = statementCounter();
  const keys: string[] = [];
  const ids: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({ log });
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
      ids.push(made.id);
    }
  });
  afterAll(() => t.close());

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

  it('a product with photos: its photos and their sizes, in two statements on PostgreSQL', async () => {
    const product = { id: ids[5]! };
    const photo = await t.db.kysely
      .insertInto('product_photos')
      .values({
        product_id: product.id,
        photo_key: 'dhol-five-front',
        position: 1,
        width: 1600,
        height: 1200,
        source_format: 'jpeg',
        source_bytes: 200_000,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('product_photo_variants')
      .values(
        [400, 800].map((width) => ({
          photo_id: photo.id,
          format: 'webp' as const,
          width,
          height: width * 0.75,
          byte_size: width * 10,
        })),
      )
      .execute();
    const { answer, statements: sent } = await counted(() =>
      t.app.inject({ method: 'GET', url: `/api/products/${keys[5]}` }),
    );
    const shown = productSchema.parse(answer.json());
    expect(shown.images).toHaveLength(1);
    expect(shown.images[0]?.imageUrl).toContain('dhol-five-front');
    if (t.db.dialect === 'postgres') expect(sent.length, sent.join('\n')).toBe(2);
  });

  it('sizes and images in their shop order, which is not the order they were added in', async () => {
    const product = { id: ids[7]! };
    // Staff moved the last-added size and image first.
    for (const table of ['product_stocks', 'product_images'] as const) {
      const rows = await t.db.kysely
        .selectFrom(table)
        .select('id')
        .where('product_id', '=', product.id)
        .orderBy('id')
        .execute();
      for (const [i, row] of rows.entries())
        await t.db.kysely
          .updateTable(table)
          .set({ sort_order: rows.length - i })
          .where('id', '=', row.id)
          .execute();
    }
    const page = productSchema.parse((await t.app.inject({ method: 'GET', url: `/api/products/${keys[7]}` })).json());
    expect(page.stocks.map((stock) => stock.productSizeName)).toEqual(['Large', 'Small']);
    expect(page.images.map((image) => image.imageUrl)).toEqual([
      '/images/products/dhol-7-2.svg',
      '/images/products/dhol-7-1.svg',
    ]);
    const found = searchResponseSchema
      .parse(
        (await t.app.inject({ method: 'POST', url: '/api/search', payload: { title: 'dhol', pageSize: 36 } })).json(),
      )
      .results.find((result) => result.urlKey === keys[7]);
    expect(found?.stocks.map((stock) => stock.productSizeName)).toEqual(['Large', 'Small']);
    expect(found?.images.map((image) => image.imageUrl)).toEqual(page.images.map((image) => image.imageUrl));
  });
});

describe('a product page with the catalogue cache on', () => {
  let t: TestApp;
  const { log, counted } = statementCounter();
  let keys: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { CATALOG_CACHE_SECONDS: '60' }, log });
    const make = catalogFactory(t.db);
    const type = await make.type({ name: 'Tablas' });
    const brand = await make.brand({ name: 'Taalwala' });
    keys = [];
    for (let i = 0; i < 3; i++)
      keys.push(
        (
          await make.product({
            typeId: type.id,
            brandId: brand.id,
            title: `Copper Tabla ${i}`,
            stocks: [{ sizeName: 'Standard', price: 15000 + i, stock: 2 }],
          })
        ).urlKey,
      );
  });
  afterAll(() => t.close());

  const page = async (key: string) =>
    productSchema.parse((await t.app.inject({ method: 'GET', url: `/api/products/${key}` })).json());

  it('is read once, then answered from the caches', async () => {
    await page(keys[0]!);
    const again = await counted(() => page(keys[0]!));
    expect(again.answer.stocks[0]?.price).toBe(15000);
    expect(again.statements).toEqual([]);
  });

  it('keeps the body it read where search results find it, so the two agree', async () => {
    const shown = await page(keys[1]!);
    // A change made behind the shop's back (no back-office write clears the caches): both keep
    // showing what the page read, until the cache's seconds run out.
    await t.db.kysely.updateTable('product_stocks').set({ price: 99_999 }).where('product_id', '=', shown.id).execute();
    const results = searchResponseSchema.parse(
      (await t.app.inject({ method: 'POST', url: '/api/search', payload: { title: 'tabla', pageSize: 36 } })).json(),
    ).results;
    expect(results.find((result) => result.id === shown.id)?.stocks[0]?.price).toBe(15001);
  });
});
