import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript } from '../../../test/helpers/run-process.ts';
import { createEmptyDatabase, type TestDatabase } from '../../../test/helpers/test-db.ts';
import { migrateToLatest } from './migrate.ts';
import { backfillTags } from './migrations/0012-products-admin.ts';

describe('migrations', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('build the catalogue tables from an empty database, and do nothing the second time', async () => {
    database = await createEmptyDatabase();
    const db = database.connect();
    expect(await migrateToLatest(db)).toEqual([
      '0001-catalogue',
      '0002-orders',
      '0003-payments',
      '0004-accounts',
      '0005-rate-limits',
      '0006-order-number-sequence',
      '0007-mail-queue',
      '0008-unpaid-order-limits',
      '0009-settings',
      '0010-refunds',
      '0011-back-office',
      '0012-products-admin',
      '0013-product-photos',
      '0014-stock-vouchers-delivery',
      '0015-paypal-checkout',
      '0016-published-search-index',
      '0017-refund-request-restock',
      '0018-one-capture-per-order',
      '0019-staff-cancelled',
      '0020-search-changes',
      '0021-spec-titles',
      '0022-mail-reply-to',
      '0023-order-replaces',
      '0024-one-search-engine',
      '0025-order-replaced-by-index',
      '0026-documents',
      '0027-shop-notified',
      '0028-collection',
      '0029-customers-by-email',
      '0030-fulfilments',
      '0031-order-links',
      '0032-returns',
      '0033-restock-without-refund',
      '0034-returned-units',
      '0035-staff-recovery-codes',
      '0036-staff-roles',
      '0037-shipping-labels',
      '0038-label-references',
    ]);
    expect(await migrateToLatest(db)).toEqual([]);
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    for (const table of [
      'product_types',
      'brands',
      'products',
      'product_images',
      'product_stocks',
      'countries',
      'titles',
      'delivery_methods',
      'vouchers',
      'orders',
      'order_lines',
      'rate_limit_hits',
      'settings',
      'mail_queue',
      'order_refunds',
      'refund_request_lines',
      'payments_to_refund',
      'stock_adjustments',
      'product_photos',
      'product_photo_variants',
      'product_photo_bytes',
    ]) {
      expect(tables).toContain(table);
    }
    // Search reads the in-process index alone (0024, docs/decisions/0026-one-search-engine.md): no
    // full-text table, column or trigger is left for a write to a product to keep up.
    expect(tables.filter((name) => name.startsWith('products_fts'))).toEqual([]);
    const columns =
      db.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from pragma_table_info('products')`.execute(db.kysely)
        : await sql<{ name: string }>`select column_name as name from information_schema.columns
            where table_schema = current_schema() and table_name = 'products'`.execute(db.kysely);
    expect(columns.rows.map((column) => column.name)).toContain('title');
    expect(columns.rows.map((column) => column.name)).not.toContain('search_vector');
  });

  it('are applied once when several instances start at the same moment', async () => {
    database = await createEmptyDatabase();
    const runs = await Promise.all(
      [1, 2, 3].map(() => runScript('src/server/db/cli/migrate.ts', { DATABASE_URL: database!.processUrl })),
    );
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(
      runs.filter((run) =>
        run.stdout.includes(
          'Applied: 0001-catalogue, 0002-orders, 0003-payments, 0004-accounts, 0005-rate-limits, 0006-order-number-sequence, 0007-mail-queue, 0008-unpaid-order-limits, 0009-settings, 0010-refunds, 0011-back-office, 0012-products-admin, 0013-product-photos, 0014-stock-vouchers-delivery, 0015-paypal-checkout, 0016-published-search-index, 0017-refund-request-restock, 0018-one-capture-per-order, 0019-staff-cancelled, 0020-search-changes, 0021-spec-titles, 0022-mail-reply-to, 0023-order-replaces, 0024-one-search-engine, 0025-order-replaced-by-index, 0026-documents, 0027-shop-notified, 0028-collection, 0029-customers-by-email, 0030-fulfilments, 0031-order-links, 0032-returns, 0033-restock-without-refund, 0034-returned-units, 0035-staff-recovery-codes, 0036-staff-roles, 0037-shipping-labels, 0038-label-references',
        ),
      ),
    ).toHaveLength(1);
    const db = database.connect();
    const rows = await sql<{ n: number | string }>`select count(*) as n from schema_migrations`.execute(db.kysely);
    expect(Number(rows.rows[0]?.n)).toBe(38);
  });

  it('leave stock unable to go below zero', async () => {
    database = await createEmptyDatabase();
    const db = database.connect();
    await migrateToLatest(db);
    await db.kysely.insertInto('product_types').values({ id: 1, name: 'T', parent_id: -1, sort_order: 0 }).execute();
    await db.kysely.insertInto('brands').values({ id: 1, name: 'B' }).execute();
    const product = await db.kysely
      .insertInto('products')
      .values({
        url_key: 'p',
        title: 'P',
        brand_id: 1,
        product_type_id: 1,
        description: '',
        seo_title: '',
        seo_keywords: '',
        seo_description: '',
        search_tags: '',
        search_text: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      db.kysely
        .insertInto('product_stocks')
        .values({
          product_id: product.id,
          size_name: 'S',
          price: 100,
          price_reduction: 0,
          price_without_discount: 100,
          stock: -1,
          sort_order: 0,
        })
        .execute(),
    ).rejects.toThrow();
  });

  it("0012 keeps a seeded product's own search words as its tags, and never gives a removed size's id to a new one", async () => {
    database = await createEmptyDatabase();
    const db = database.connect();
    await migrateToLatest(db);
    const k = db.kysely;
    await k
      .insertInto('product_types')
      .values([
        { id: 1, name: 'Percussion', parent_id: -1, sort_order: 0 },
        { id: 2, name: 'Dhols', parent_id: 1, sort_order: 0 },
      ])
      .execute();
    await k.insertInto('brands').values({ id: 1, name: 'Raag' }).execute();
    const product = (urlKey: string, typeId: number, searchTags: string) => ({
      url_key: urlKey,
      title: urlKey,
      brand_id: 1,
      product_type_id: typeId,
      description: '',
      seo_title: '',
      seo_keywords: '',
      seo_description: '',
      search_tags: searchTags,
      search_text: '',
    });
    // As the demo seed wrote them before 0012: type, parent type (or nothing), brand, own words.
    await k
      .insertInto('products')
      .values([
        product('a', 2, 'Dhols Percussion Raag drum bhangra'),
        product('b', 1, 'Percussion  Raag hand drum'),
        product('c', 2, 'written by hand'),
      ])
      .execute();
    await backfillTags(k);
    const tags = await k.selectFrom('products').select(['url_key', 'tags']).orderBy('url_key').execute();
    expect(tags).toEqual([
      { url_key: 'a', tags: 'drum bhangra' },
      { url_key: 'b', tags: 'hand drum' },
      { url_key: 'c', tags: 'written by hand' },
    ]);

    const size = (sizeName: string) => ({
      product_id: 1,
      size_name: sizeName,
      price: 100,
      price_reduction: 0,
      price_without_discount: 100,
      stock: 1,
      sort_order: 0,
    });
    const first = await k.insertInto('product_stocks').values(size('First')).returning('id').executeTakeFirstOrThrow();
    await k.deleteFrom('product_stocks').where('id', '=', first.id).execute();
    const next = await k.insertInto('product_stocks').values(size('Next')).returning('id').executeTakeFirstOrThrow();
    expect(next.id).toBeGreaterThan(first.id);
  });
});
