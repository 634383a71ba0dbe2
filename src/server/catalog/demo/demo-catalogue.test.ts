import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, createTestDb, type TestDatabase } from '../../../../test/helpers/test-db.ts';
import type { Db } from '../../db/database.ts';
import { runScript } from '../../../../test/helpers/run-process.ts';
import { demoTypes } from './catalogue-data.ts';
import { DEMO_PRODUCT_COUNT } from './generate-products.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';

describe('the demo catalogue', () => {
  let db: Db;
  let database: TestDatabase;
  beforeAll(async () => {
    ({ db, database } = await createTestDb());
    expect(await seedDemoCatalogue(db)).toEqual({ seeded: true, products: DEMO_PRODUCT_COUNT });
  });
  afterAll(() => database.drop());

  it('has at least 150 products, in every leaf type', async () => {
    const products = await db.kysely.selectFrom('products').select(['product_type_id']).execute();
    expect(products.length).toBeGreaterThanOrEqual(150);
    const parents = new Set<number>(demoTypes.map((t) => t.parentId));
    const leaves = demoTypes.filter((t) => !parents.has(t.id)).map((t) => t.id);
    for (const leaf of leaves) expect(products.some((p) => p.product_type_id === leaf)).toBe(true);
  });

  it('uses the ids the spec names', async () => {
    const types = (await db.kysely.selectFrom('product_types').select('id').execute()).map((t) => t.id);
    expect(types).toEqual(expect.arrayContaining([1001, 1003, 2008, 2009, 2010, 2016, 2017, 2019, 2021, 2035]));
    const brands = (await db.kysely.selectFrom('brands').select('id').execute()).map((b) => b.id);
    expect(brands).toEqual(expect.arrayContaining([1, 2, 1001]));
    expect(await db.kysely.selectFrom('countries').selectAll().execute()).toEqual([
      { id: 1, name: 'United Kingdom', iso_code: 'GB' },
    ]);
    expect(
      (await db.kysely.selectFrom('titles').select('name').orderBy('sort_order').execute()).map((t) => t.name),
    ).toEqual(['MR', 'MRS', 'MS']);
  });

  it('prices from about £5 to £1,500, with 1 to 4 entries, some discounted and some sold out', async () => {
    const stocks = await db.kysely.selectFrom('product_stocks').selectAll().execute();
    const prices = stocks.map((s) => s.price_without_discount);
    expect(Math.min(...prices)).toBeLessThanOrEqual(1000);
    expect(Math.max(...prices)).toBeGreaterThanOrEqual(120_000);
    expect(Math.max(...prices)).toBeLessThanOrEqual(200_000);
    const perProduct = new Map<number, number>();
    for (const s of stocks) perProduct.set(s.product_id, (perProduct.get(s.product_id) ?? 0) + 1);
    expect(Math.min(...perProduct.values())).toBeGreaterThanOrEqual(1);
    expect(Math.max(...perProduct.values())).toBeLessThanOrEqual(4);
    expect(new Set(perProduct.values()).size).toBeGreaterThan(1);
    const discounted = stocks.filter((s) => s.price_reduction > 0);
    expect(discounted.length).toBeGreaterThan(10);
    for (const s of discounted)
      expect(s.price).toBe(Math.round((s.price_without_discount * (100 - s.price_reduction)) / 100));
    expect(stocks.some((s) => s.stock === 0)).toBe(true);
  });

  it('gives every product 2 to 4 images, SEO fields and a description with line breaks', async () => {
    const products = await db.kysely.selectFrom('products').selectAll().execute();
    const images = await db.kysely.selectFrom('product_images').selectAll().execute();
    for (const product of products) {
      const count = images.filter((i) => i.product_id === product.id).length;
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(4);
      expect(product.description).toContain('\n');
      expect(product.seo_title && product.seo_keywords && product.seo_description).toBeTruthy();
    }
    expect(new Set(products.map((p) => p.url_key)).size).toBe(products.length);
  });

  it('is seeded only into an empty database', async () => {
    expect(await seedDemoCatalogue(db)).toEqual({ seeded: false, products: 0 });
  });
});

describe('seeding', () => {
  it('happens once when several instances start together', async () => {
    const database = await createEmptyDatabase();
    try {
      const runs = await Promise.all(
        [1, 2].map(() => runScript('src/server/catalog/cli/seed-demo.ts', { DATABASE_URL: database.processUrl })),
      );
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
      expect(runs.filter((run) => run.stdout.startsWith('Seeded'))).toHaveLength(1);
      const count = await database
        .connect()
        .kysely.selectFrom('products')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(DEMO_PRODUCT_COUNT);
    } finally {
      await database.drop();
    }
  });

  it('generates a larger catalogue with unique URL keys on request', async () => {
    const { db, database } = await createTestDb();
    try {
      await seedDemoCatalogue(db, { products: 1200 });
      const rows = await db.kysely.selectFrom('products').select('url_key').execute();
      expect(rows).toHaveLength(1200);
      expect(new Set(rows.map((r) => r.url_key)).size).toBe(1200);
    } finally {
      await database.drop();
    }
  });
});
