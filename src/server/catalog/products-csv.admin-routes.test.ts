import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductDetail } from '../../contract/admin/catalogue.ts';
import {
  MAX_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
  productCsvHeader,
  type ProductImportSummary,
} from '../../contract/admin/products-csv.ts';
import { adminCalls, productInput } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { csrfTokenForCookies } from '../../../test/helpers/csrf.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { BadRequestError } from '../errors.ts';
import { createProductsCsvService } from './products-csv.admin-service.ts';

/**
 * Products as CSV (docs/back-office.md#csv-import-and-export): the export (a row per size, pounds,
 * formula-safe cells), the import's preview with errors naming row and column, apply in one
 * transaction (all rows or none), stock reached through correction adjustments, the round trip
 * that changes nothing, and who may do it. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
describe('products CSV', () => {
  let t: TestApp;
  let owner: { cookie: string; email: string };
  let staff: { cookie: string };
  let make: ReturnType<typeof catalogFactory>;
  let parent: { id: number; name: string };
  let type: { id: number; name: string };
  let brand: { id: number; name: string };
  /** The type as the file writes it: its place in the tree. */
  let typePath: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    await checkoutFixtures(t.db);
    make = catalogFactory(t.db);
    parent = await make.type({ name: `Drums ${Date.now()}` });
    type = await make.type({ name: 'Dholaks', parentId: parent.id });
    brand = await make.brand({ name: `Haridwar Works ${Date.now()}` });
    typePath = `${parent.name} > Dholaks`;
    owner = await staffMember(t, 'owner');
    staff = await staffMember(t, 'staff');
  });
  afterAll(() => t.close());

  const asOwner = () => adminCalls(t, owner.cookie);
  const send = (path: string, csv: string, cookie = owner.cookie) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/products/import${path}`,
      headers: { cookie, 'content-type': 'text/csv' },
      payload: csv,
    });
  const preview = async (csv: string): Promise<ProductImportSummary> => {
    const answer = await send('/preview', csv);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  const exported = async (): Promise<string> => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/admin/products.csv',
      headers: { cookie: staff.cookie },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.body;
  };
  const records = (csv: string) => parse(csv, { bom: true }) as string[][];
  const rowsOf = (csv: string, urlKey: string) => records(csv).filter((record) => record[0] === urlKey);
  async function create(overrides: Parameters<typeof productInput>[2] = {}): Promise<ProductDetail> {
    const answer = await asOwner()('POST', '/products', productInput(type.id, brand.id, overrides));
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  }
  const detail = async (id: number): Promise<ProductDetail> => (await asOwner()('GET', `/products/${id}`)).json();
  const idOf = async (urlKey: string) =>
    (await t.db.kysely.selectFrom('products').select('id').where('url_key', '=', urlKey).executeTakeFirst())?.id;
  /** A file of the header and these rows, each cell by its column's name. */
  const file = (...rows: Array<Record<string, string>>) =>
    [productCsvHeader, ...rows.map((row) => productCsvHeader.map((name) => row[name] ?? ''))]
      .map((cells) => cells.map((value) => `"${value.replaceAll('"', '""')}"`).join(','))
      .join('\r\n');
  let made = 0;
  const row = (overrides: Record<string, string> = {}): Record<string, string> => ({
    'URL key': `csv-dholak-${Date.now().toString(36)}-${++made}`,
    Title: 'Imported Dholak',
    Status: 'published',
    Type: typePath,
    Brand: brand.name,
    Description: 'Sheesham shell, rope tuned.',
    'Size or style': 'Standard',
    'Price (GBP)': '120.00',
    'Reduction (%)': '0',
    Stock: '4',
    ...overrides,
  });

  it('exports a row per size: the type by its place, prices in pounds, stock', async () => {
    const product = await create({
      title: 'Export Dholak',
      seoKeywords: 'dholak, drum',
      searchTags: 'folk',
      sizes: [
        { sizeName: 'Standard', priceWithoutDiscount: 12_050, priceReduction: 0, stock: 5 },
        { sizeName: 'Large', priceWithoutDiscount: 15_000, priceReduction: 10, stock: 3 },
      ],
    });
    const csv = await exported();
    expect(records(csv)[0]).toEqual(productCsvHeader);
    expect(rowsOf(csv, product.urlKey)).toEqual([
      [
        product.urlKey,
        'Export Dholak',
        'draft',
        typePath,
        brand.name,
        'Sheesham shell, rope tuned.\nA second line.',
        'Export Dholak',
        'dholak, drum',
        'Sheesham shell, rope tuned. A second line.',
        'folk',
        'Standard',
        '120.50',
        '0',
        '5',
        // No parcel facts: weight, packaging and sides blank.
        '',
        '',
        '',
        '',
        '',
      ],
      expect.arrayContaining(['Large', '150.00', '10', '3']),
    ]);
  });

  it("exports and imports each size's weight and box, a packaging by its name, and keeps them for a file without those columns", async () => {
    const box = await asOwner()('POST', '/packagings', {
      name: `Dholak box ${Date.now()}`,
      lengthMm: 700,
      widthMm: 300,
      heightMm: 300,
      weightGrams: 800,
    });
    expect(box.statusCode, box.body).toBe(201);
    const boxName = (box.json() as { name: string }).name;
    const product = await create({
      sizes: [
        {
          sizeName: 'Standard',
          priceWithoutDiscount: 12_000,
          priceReduction: 0,
          stock: 5,
          parcel: { weightGrams: 4000, packagingId: box.json().id },
        },
        {
          sizeName: 'Bag',
          priceWithoutDiscount: 2_000,
          priceReduction: 0,
          stock: 5,
          parcel: { weightGrams: 300, lengthMm: 400, widthMm: 200, heightMm: 50 },
        },
      ],
    });
    const [standard, bag] = rowsOf(await exported(), product.urlKey);
    expect(standard!.slice(-5)).toEqual(['4000', boxName, '', '', '']);
    expect(bag!.slice(-5)).toEqual(['300', '', '400', '200', '50']);

    const base = {
      'URL key': product.urlKey,
      Title: product.title,
      Status: 'draft',
      Description: product.description,
      'SEO title': product.title,
      'SEO description': product.seoDescription,
    };
    const changed = file(
      row({
        ...base,
        'Size or style': 'Standard',
        'Price (GBP)': '120.00',
        Stock: '',
        'Weight (g)': '4200',
        Packaging: boxName.toUpperCase(),
      }),
      row({
        ...base,
        'Size or style': 'Bag',
        'Price (GBP)': '20.00',
        Stock: '',
        'Weight (g)': '300',
        'Length (mm)': '400',
        'Width (mm)': '250',
        'Height (mm)': '50',
      }),
    );
    const summary = await preview(changed);
    expect(summary.errors).toEqual([]);
    expect(summary.changes.find((change) => change.urlKey === product.urlKey)?.changes).toEqual([
      'Weight (g) of "Standard": 4000 to 4200',
      'Width (mm) of "Bag": 200 to 250',
    ]);
    expect((await send('', changed)).statusCode).toBe(200);
    expect((await detail(product.id)).sizes.map((size) => size.parcel)).toEqual([
      { weightGrams: 4200, packagingId: box.json().id, lengthMm: null, widthMm: null, heightMm: null },
      { weightGrams: 300, packagingId: null, lengthMm: 400, widthMm: 250, heightMm: 50 },
    ]);

    // Bad parcel cells are named by row and column.
    const bad = await preview(
      file(
        row({ ...base, 'Size or style': 'Standard', 'Price (GBP)': '120.00', Stock: '', 'Weight (g)': 'heavy' }),
        row({
          ...base,
          'Size or style': 'Bag',
          'Price (GBP)': '20.00',
          Stock: '',
          'Weight (g)': '300',
          'Length (mm)': '400',
        }),
        row({ ...base, 'Size or style': 'Gift', 'Price (GBP)': '30.00', Stock: '1', Packaging: 'Crate of dreams' }),
      ),
    );
    expect(bad.errors).toEqual([
      { row: 2, column: 'Weight (g)', message: 'Write the weight in whole grams, or leave it blank' },
      { row: 3, column: 'Width (mm)', message: 'Please give all three dimensions, or none' },
      { row: 4, column: 'Packaging', message: 'There is no packaging "Crate of dreams"' },
    ]);

    // A file from before these columns (or without them) leaves every size's parcel facts as they are.
    const older = productCsvHeader.slice(0, 14);
    const olderFile = [
      older,
      older.map(
        (name) => ({ ...row({ ...base, 'Size or style': 'Bag', 'Price (GBP)': '21.00', Stock: '' }) })[name] ?? '',
      ),
    ]
      .map((cells) => cells.map((value) => `"${value}"`).join(','))
      .join('\r\n');
    expect((await send('', olderFile)).statusCode).toBe(200);
    expect((await detail(product.id)).sizes.map((size) => size.parcel.weightGrams)).toEqual([4200, 300]);
    expect((await detail(product.id)).sizes[1]!.priceWithoutDiscount).toBe(2_100);
  });

  it('neutralises cells a spreadsheet would run as formulas, and reads them back as they were', async () => {
    const product = await create({
      title: '=HYPERLINK("http://evil.example","Dholak")',
      description: '+1 spare head',
      searchTags: '@tabla',
      sizes: [{ sizeName: "-Small'", priceWithoutDiscount: 1_000, priceReduction: 0, stock: 1 }],
    });
    const csv = await exported();
    const [cells] = rowsOf(csv, product.urlKey);
    expect(cells?.[1]).toBe(`'=HYPERLINK("http://evil.example","Dholak")`);
    expect(cells?.[5]).toBe(`'+1 spare head`);
    expect(cells?.[9]).toBe(`'@tabla`);
    expect(cells?.[10]).toBe(`'-Small'`);
    // Read back, the apostrophes come off again: nothing differs from the product.
    const back = await preview(
      `${productCsvHeader.join(',')}\r\n${csv.split('\r\n').find((l) => l.startsWith(product.urlKey))}`,
    );
    expect(back).toMatchObject({ errorCount: 0, productsUnchanged: 1, productsUpdated: 0, changes: [] });
  });

  it('round-trips: the export imported unchanged changes nothing', async () => {
    await create({ title: 'Round trip, "quoted"\nand on two lines', status: 'published' });
    await create({ searchTags: 'tabla, dayan' });
    const before = await exported();
    const snapshot = async () => ({
      products: await t.db.kysely.selectFrom('products').selectAll().orderBy('id').execute(),
      sizes: await t.db.kysely.selectFrom('product_stocks').selectAll().orderBy('id').execute(),
      adjustments: await t.db.kysely.selectFrom('stock_adjustments').select('id').execute(),
    });
    const held = await snapshot();
    const products = held.products.length;

    expect(await preview(before)).toMatchObject({
      errorCount: 0,
      productsCreated: 0,
      productsUpdated: 0,
      productsUnchanged: products,
      sizesCreated: 0,
      sizesUpdated: 0,
      stockAdjustments: 0,
    });
    const applied = await send('', before);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ applied: true, productsUnchanged: products, productsUpdated: 0 });
    expect(await snapshot()).toEqual(held);
    expect(await exported()).toBe(before);
  });

  it('previews every error by row and column, and writes nothing', async () => {
    const good = row({ Title: 'Preview only' });
    const csv = file(
      good,
      row({ 'URL key': good['URL key'] as string, Title: 'Another title', 'Size or style': 'Large' }),
      row({ Type: 'Harmoniums' }),
      row({ Brand: 'Nobody Makes This' }),
      row({ 'Price (GBP)': '12,5' }),
      row({ Title: '' }),
      row({ 'URL key': 'Not A Key' }),
      row({ 'URL key': good['URL key'] as string, Title: 'Preview only', 'Size or style': 'standard' }),
      row({ Stock: '' }),
      row({ 'Reduction (%)': '120' }),
    );
    const answer = await preview(csv);
    expect(answer.errors).toEqual([
      {
        row: 3,
        column: 'Title',
        message: expect.stringContaining('Row 2 has the same URL key with a different title'),
      },
      { row: 4, column: 'Type', message: expect.stringContaining('There is no type "Harmoniums"') },
      { row: 5, column: 'Brand', message: 'There is no brand "Nobody Makes This"' },
      { row: 6, column: 'Price (GBP)', message: 'Write the price in pounds, e.g. 12.50' },
      { row: 7, column: 'Title', message: 'Please enter a title' },
      { row: 8, column: 'URL key', message: expect.stringContaining('lower-case letters') },
      { row: 9, column: 'Size or style', message: 'Row 2 has the size "standard" of this product already' },
      { row: 10, column: 'Stock', message: 'Please enter the stock of a new size' },
      { row: 11, column: 'Reduction (%)', message: 'The reduction must be 0 to 100 percent' },
    ]);
    expect(answer).toMatchObject({ rows: 10, errorCount: 9, applied: false });
    expect(await idOf(good['URL key'] as string)).toBeUndefined();
  });

  it('counts in a preview only what the products without errors would change', async () => {
    const [faulty, fine] = [row(), row()];
    expect((await send('', file(faulty, fine))).statusCode).toBe(200);
    const answer = await preview(
      file(
        { ...faulty, Stock: '9', 'Price (GBP)': '130.00', Brand: 'Nobody Makes This' },
        { ...fine, Stock: '7', 'Price (GBP)': '125.00' },
      ),
    );
    // The faulty product's new stock and price would not be imported, so they are not counted.
    expect(answer).toMatchObject({ errorCount: 1, productsUpdated: 1, sizesUpdated: 1, stockAdjustments: 1 });
  });

  it('applies nothing when one row is bad, and says which row and column', async () => {
    const fine = row();
    const bad = row({ 'Price (GBP)': 'twelve' });
    const answer = await send('', file(fine, bad));
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatchObject({
      message: expect.stringContaining('nothing was imported'),
      fields: [{ field: 'row 3, Price (GBP)', message: 'Write the price in pounds, e.g. 12.50' }],
    });
    expect(await idOf(fine['URL key'] as string)).toBeUndefined();
  });

  it('creates and updates products, sets stock by correction adjustments, leaves other sizes, and logs the import', async () => {
    const existing = await create({
      title: 'Updated by CSV',
      status: 'published',
      sizes: [
        { sizeName: 'Standard', priceWithoutDiscount: 12_000, priceReduction: 0, stock: 5 },
        { sizeName: 'Large', priceWithoutDiscount: 15_000, priceReduction: 10, stock: 3 },
      ],
    });
    // The storefront has it cached at its old price.
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${existing.urlKey}` })).statusCode).toBe(200);
    const fresh = row({
      Title: 'Brand new from CSV',
      'Size or style': 'Small',
      'Price (GBP)': '£1,099.99',
      Stock: '7',
    });
    const csv = file(
      fresh,
      { ...fresh, 'Size or style': 'Big', 'Price (GBP)': '99', 'Reduction (%)': '25%', Stock: '2' },
      row({
        'URL key': existing.urlKey,
        Title: 'Updated by CSV',
        Description: existing.description,
        'SEO title': existing.seoTitle,
        'SEO description': existing.seoDescription,
        'Size or style': 'Standard',
        'Price (GBP)': '110.00',
        Stock: '9',
      }),
      row({
        'URL key': existing.urlKey,
        Title: 'Updated by CSV',
        Description: existing.description,
        'SEO title': existing.seoTitle,
        'SEO description': existing.seoDescription,
        'Size or style': 'Travel',
        'Price (GBP)': '80.00',
        Stock: '1',
      }),
    );
    const previewed = await preview(csv);
    expect(previewed).toMatchObject({
      errorCount: 0,
      productsCreated: 1,
      productsUpdated: 1,
      sizesCreated: 3,
      sizesUpdated: 1,
      stockAdjustments: 1,
    });
    expect(previewed.changes.find((change) => change.urlKey === existing.urlKey)?.changes).toEqual([
      'Price (GBP) of "Standard": 120.00 to 110.00',
      'Stock of "Standard": 5 to 9',
      'New size "Travel"',
    ]);
    expect(await idOf(fresh['URL key'] as string)).toBeUndefined();

    const answer = await send('', csv);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ applied: true, productsCreated: 1, productsUpdated: 1 });

    const created = await detail((await idOf(fresh['URL key'] as string)) as number);
    expect(created).toMatchObject({ title: 'Brand new from CSV', status: 'published', productTypeId: type.id });
    expect(
      created.sizes.map(({ sizeName, priceWithoutDiscount, priceReduction, price, stock }) => [
        sizeName,
        priceWithoutDiscount,
        priceReduction,
        price,
        stock,
      ]),
    ).toEqual([
      ['Small', 109_999, 0, 109_999, 7],
      ['Big', 9_900, 25, 7_425, 2],
    ]);
    const updated = await detail(existing.id);
    expect(updated.sizes.map(({ sizeName, price, stock }) => [sizeName, price, stock])).toEqual([
      ['Standard', 11_000, 9],
      // Not in the file: left as it was.
      ['Large', 13_500, 3],
      ['Travel', 8_000, 1],
    ]);
    const standard = updated.sizes[0]!.id;
    const history = (await asOwner()('GET', `/stock/${standard}`)).json();
    expect(history.adjustments).toEqual([
      expect.objectContaining({
        delta: 4,
        reason: 'correction',
        note: 'CSV import',
        stockAfter: 9,
        staffEmail: owner.email,
      }),
    ]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'product.import')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.staff_email).toBe(owner.email);
    expect(JSON.parse(audit.after ?? '{}')).toMatchObject({
      rows: 4,
      productsCreated: 1,
      productsUpdated: 1,
      stockAdjustments: 1,
      created: [fresh['URL key']],
      updated: [existing.urlKey],
    });
    // This instance's storefront shows the new price at once: its caches were cleared.
    const shop = (await t.app.inject({ method: 'GET', url: `/api/products/${existing.urlKey}` })).json();
    expect(JSON.stringify(shop)).toContain('11000');
    const search = await t.app.inject({ method: 'POST', url: '/api/search', payload: { title: 'Brand new from CSV' } });
    expect(search.json().totalResults).toBe(1);
  });

  /** A file setting one product's price to £50.00 and its one size's stock to `stock`. */
  const stockFileFor =
    (product: { urlKey: string; title: string; description: string; seoTitle: string; seoDescription: string }) =>
    (stock: number) =>
      file(
        row({
          'URL key': product.urlKey,
          Title: product.title,
          Status: 'published',
          Description: product.description,
          'SEO title': product.seoTitle,
          'SEO description': product.seoDescription,
          'Price (GBP)': '50.00',
          Stock: String(stock),
        }),
      );
  /** Each call a new guest, from an address of their own in 10.`subnet`.x.x, buying one unit. */
  const shopperBuyingOneOf = (stockId: number, emailPrefix: string, subnet: number) => {
    let buyers = 0;
    return () => {
      buyers++;
      return t.app.inject({
        method: 'POST',
        url: '/api/basket',
        payload: commitBody([{ productStockId: stockId, requestedQty: 1 }], {
          guest: { ...guest, email: `${emailPrefix}${buyers}.${Date.now()}@example.com` },
        }),
        remoteAddress: `10.${subnet}.${buyers % 250}.${(buyers * 7) % 250}`,
      });
    };
  };

  it('never loses a checkout made while imports set the stock: final = start + corrections - units sold', async () => {
    const start = 20;
    const product = await create({
      status: 'published',
      sizes: [{ sizeName: 'Standard', priceWithoutDiscount: 5_000, priceReduction: 0, stock: start }],
    });
    const stockId = product.sizes[0]!.id;
    const fileSetting = stockFileFor(product);
    const checkout = shopperBuyingOneOf(stockId, 'csv.buyer', 15);
    // One import after another, all while shoppers check out (imports at once: the next test).
    const importOneByOne = async () => {
      const answers = [];
      for (const level of [12, 15, 13, 11, 14, 12]) answers.push(await send('', fileSetting(level)));
      return answers;
    };
    const [imports, checkouts] = await Promise.all([
      importOneByOne(),
      Promise.all(Array.from({ length: 12 }, checkout)),
    ]);
    for (const answer of checkouts) expect(answer.statusCode, answer.body).toBe(200);
    // An import that finds units sold since it read the stock sets nothing and says so (409, try
    // again); whichever way each went, nothing is lost.
    for (const answer of imports) {
      if (answer.statusCode !== 200)
        expect(answer.json().error.message, answer.body).toMatch(/were sold while the file was imported/);
    }
    // With the shop quiet again, an import sets the stock.
    expect((await send('', fileSetting(16))).statusCode).toBe(200);

    const corrections = await t.db.kysely
      .selectFrom('stock_adjustments')
      .select(['delta', 'reason', 'stock_after'])
      .where('product_stock_id', '=', stockId)
      .execute();
    const sold = await t.db.kysely
      .selectFrom('order_lines')
      .select((eb) => eb.fn.sum<number | string>('quantity').as('units'))
      .where('product_stock_id', '=', stockId)
      .executeTakeFirstOrThrow();
    expect(Number(sold.units ?? 0)).toBeGreaterThan(0);
    expect(corrections.length).toBeGreaterThan(0);
    expect(corrections.every((c) => c.reason === 'correction' && c.stock_after >= 0)).toBe(true);
    const stock = await t.db.kysely
      .selectFrom('product_stocks')
      .select('stock')
      .where('id', '=', stockId)
      .executeTakeFirstOrThrow();
    expect(stock.stock).toBe(start + corrections.reduce((sum, c) => sum + c.delta, 0) - Number(sold.units));
  });

  it('sets the level each file names when imports and checkouts run at once: no import adds to another', async () => {
    const product = await create({
      status: 'published',
      sizes: [{ sizeName: 'Standard', priceWithoutDiscount: 5_000, priceReduction: 0, stock: 10 }],
    });
    const stockId = product.sizes[0]!.id;
    const fileSetting = stockFileFor(product);
    const levels = [30, 40, 25, 35, 45, 50];
    const checkout = shopperBuyingOneOf(stockId, 'csv.crowd', 16);
    const [imports] = await Promise.all([
      Promise.all(levels.map((level) => send('', fileSetting(level)))),
      Promise.all(Array.from({ length: 6 }, checkout)),
    ]);
    for (const answer of imports) expect(answer.statusCode, answer.body).toBe(200);

    // Each import's correction took the level to exactly its file's number, whatever ran beside it.
    const corrections = await t.db.kysely
      .selectFrom('stock_adjustments')
      .select(['delta', 'stock_after'])
      .where('product_stock_id', '=', stockId)
      .orderBy('id')
      .execute();
    expect(corrections.map((c) => c.stock_after).sort((a, b) => a - b)).toEqual([...levels].sort((a, b) => a - b));
    // The level now is the last file's, less what was sold after it.
    const soldSince = await t.db.kysely
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .select((eb) => eb.fn.countAll<number | string>().as('units'))
      .where('product_stock_id', '=', stockId)
      .executeTakeFirstOrThrow();
    const stock = await t.db.kysely
      .selectFrom('product_stocks')
      .select('stock')
      .where('id', '=', stockId)
      .executeTakeFirstOrThrow();
    const last = corrections.at(-1)!.stock_after;
    expect(stock.stock).toBeLessThanOrEqual(last);
    expect(stock.stock).toBeGreaterThanOrEqual(last - Number(soldSince.units));
  });

  it('refuses an old URL key of another product rather than taking it over', async () => {
    const product = await create();
    const renamed = `${product.urlKey}-new`;
    const put = await asOwner()('PUT', `/products/${product.id}`, {
      ...productInput(type.id, brand.id),
      title: product.title,
      urlKey: renamed,
      sizes: product.sizes.map(({ id, sizeName, priceWithoutDiscount, priceReduction }) => ({
        id,
        sizeName,
        priceWithoutDiscount,
        priceReduction,
      })),
    });
    expect(put.statusCode, put.body).toBe(200);
    const answer = await preview(file(row({ 'URL key': product.urlKey })));
    expect(answer.errors).toEqual([
      { row: 2, column: 'URL key', message: expect.stringContaining(`whose key is now "${renamed}"`) },
    ]);
  });

  it('answers a file it cannot read as such with a 400 naming the file', async () => {
    const missing = await send('/preview', 'URL key,Title\r\nx,y');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual([
      { field: 'file', message: expect.stringContaining('missing "Status"') },
    ]);
    const unreadable = await send('/preview', `${productCsvHeader.join(',')}\r\n"unclosed,quote`);
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().error.fields[0].field).toBe('file');
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/admin/products/import/preview',
      headers: { cookie: owner.cookie },
      payload: { csv: 'x' },
    });
    expect(json.statusCode).toBe(400);
  });

  it('is refused to a stranger (all three) and to a role without the catalogue permission', async () => {
    const csv = file(row());
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/products.csv' })).statusCode).toBe(401);
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/admin/roles',
      headers: { cookie: owner.cookie },
      payload: { name: 'vouchers only', permissions: ['pricing'] },
    });
    expect(role.statusCode, role.body).toBe(200);
    const vouchers = await staffMember(t, 'vouchers only');
    const exportedByThem = await t.app.inject({
      method: 'GET',
      url: '/api/admin/products.csv',
      headers: { cookie: vouchers.cookie },
    });
    expect(exportedByThem.statusCode).toBe(403);
    for (const path of ['/preview', '']) {
      expect((await send(path, csv, '')).statusCode).toBe(401);
      const byThem = await send(path, csv, vouchers.cookie);
      expect(byThem.statusCode).toBe(403);
    }
  });

  it('needs the CSRF token to apply', async () => {
    const fresh = row();
    const headers = { cookie: owner.cookie, 'content-type': 'text/csv' };
    const without = await t.server.inject({
      method: 'POST',
      url: '/api/admin/products/import',
      headers,
      payload: file(fresh),
    });
    expect(without.statusCode).toBe(403);
    expect(await idOf(fresh['URL key'] as string)).toBeUndefined();
    const token = csrfTokenForCookies(owner.cookie);
    const withToken = await t.server.inject({
      method: 'POST',
      url: '/api/admin/products/import',
      headers: { ...headers, cookie: `${owner.cookie}; XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
      payload: file(fresh),
    });
    expect(withToken.statusCode, withToken.body).toBe(200);
    expect(await idOf(fresh['URL key'] as string)).toBeDefined();
  });

  // A hostile or broken file costs the instance a bounded amount of work, done off the event loop
  // (issue 31, item 3): caps on columns, rows and a cell's length answer 400 naming the limit.
  it('refuses a header of too many columns with a 400 naming the limit', async () => {
    const names = Array.from({ length: 2_000 }, (_, n) => `Column ${n % 500}`);
    const answer = await send('/preview', `${[...productCsvHeader, ...names].join(',')}\r\n`);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.fields).toEqual([
      { field: 'file', message: expect.stringContaining(`at most ${MAX_IMPORT_COLUMNS} columns`) },
    ]);
  });

  it('refuses a row of too many cells with a 400 naming the limit', async () => {
    const csv = `${file(row())}\r\n${','.repeat(100_000)}`;
    const answer = await send('/preview', csv);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.fields).toEqual([
      {
        field: 'file',
        message: expect.stringMatching(new RegExp(`row 3.*at most ${MAX_IMPORT_COLUMNS} columns`, 'i')),
      },
    ]);
  });

  it('refuses a flood of blank rows with a 400 naming the row limit', async () => {
    // Blank lines count as rows wherever they are followed by one that is not blank.
    for (const blank of ['\r\n', ',\r\n', ' ,,\r\n']) {
      const answer = await send(
        '/preview',
        `${productCsvHeader.join(',')}\r\n${blank.repeat(1_000_000 / blank.length)}x`,
      );
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().error.fields).toEqual([
        { field: 'file', message: expect.stringContaining(`at most ${MAX_IMPORT_ROWS.toLocaleString('en-GB')} rows`) },
      ]);
    }
  });

  it('numbers rows as a spreadsheet does, blank lines included', async () => {
    const csv = file(row(), row({ Title: '' })).replace('\r\n', '\r\n\r\n\r\n');
    const answer = await preview(csv);
    expect(answer.errors).toEqual([{ row: 5, column: 'Title', message: expect.any(String) }]);
  });

  it('still ignores a few blank rows after the last product', async () => {
    const answer = await preview(`${file(row())}\r\n${',\r\n'.repeat(50)}`);
    expect(answer).toMatchObject({ rows: 1, errorCount: 0, productsCreated: 1 });
  });

  it('refuses a cell longer than the limit with a 400 naming it, without reading on', async () => {
    const csv = file(row(), row({ Description: 'x'.repeat(MAX_CELL_CHARS + 1) }));
    const answer = await send('/preview', csv);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.fields).toEqual([
      {
        field: 'file',
        message: expect.stringMatching(
          new RegExp(`row 3.*at most ${MAX_CELL_CHARS.toLocaleString('en-GB')} characters`, 'i'),
        ),
      },
    ]);
  });

  // The body is decoded as it arrives, a piece at a time (issue 31): 20 MB decoded at once held the event loop.
  const sendInPieces = (pieces: Buffer[], headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/products/import/preview',
      headers: { cookie: owner.cookie, 'content-type': 'text/csv', ...headers },
      payload: Readable.from(pieces),
    });

  it('reads a file sent in pieces, a character split between two of them', async () => {
    const bytes = Buffer.from(file(row({ Title: 'Tablā Jodī 🥁 Set' })));
    const splitAt = bytes.indexOf(Buffer.from('ā')) + 1;
    const emojiAt = bytes.indexOf(Buffer.from('🥁')) + 2;
    const answer = await sendInPieces([
      bytes.subarray(0, splitAt),
      bytes.subarray(splitAt, emojiAt),
      bytes.subarray(emojiAt),
    ]);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().changes).toEqual([expect.objectContaining({ action: 'create', title: 'Tablā Jodī 🥁 Set' })]);
  });

  it('refuses a file over the 20 MB limit with a 413, whether or not it says its length', async () => {
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    const pieces = [Buffer.from(`${file(row())}\r\n`), ...Array.from({ length: 20 }, () => piece)];
    const unsaid = await sendInPieces(pieces);
    expect(unsaid.statusCode, unsaid.body).toBe(413);
    const length = String(pieces.reduce((sum, one) => sum + one.length, 0));
    const said = await sendInPieces([Buffer.from(file(row()))], { 'content-length': length });
    expect(said.statusCode, said.body).toBe(413);
  });

  it('refuses a file shorter than its Content-Length with a 400', async () => {
    const bytes = Buffer.from(file(row()));
    const answer = await sendInPieces([bytes], { 'content-length': String(bytes.length + 10) });
    expect(answer.statusCode, answer.body).toBe(400);
  });

  it('reads the file off the event loop: a turn of the loop passes before even a bad header is answered', async () => {
    const service = createProductsCsvService(t.db.kysely, { onChange: () => {} });
    // 80,000 header names took 8.6 s of the event loop to check, every other request waiting.
    const header = Array.from({ length: 80_000 }, (_, n) => `Column ${n}`).join(',');
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const refusal = await service.preview(`${header}\r\n`).catch((error: unknown) => error);
    expect(turned).toBe(true);
    expect(refusal).toBeInstanceOf(BadRequestError);
    expect((refusal as BadRequestError).message).toContain(`at most ${MAX_IMPORT_COLUMNS} columns`);
  });
});
