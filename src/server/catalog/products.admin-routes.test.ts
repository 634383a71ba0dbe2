import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductDetail, ProductList } from '../../contract/admin/catalogue.ts';
import { adminCalls, productInput } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Products in the back office (docs/back-office.md#catalogue): the list and its filters, create,
 * edit with sizes, duplicate, status, URL keys and their redirects, validation naming each field,
 * and an audit entry for every change. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
describe('back office products', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminCalls>;
  let staffEmail: string;
  let make: ReturnType<typeof catalogFactory>;
  let type: { id: number; name: string };
  let brand: { id: number; name: string };
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    await checkoutFixtures(t.db);
    make = catalogFactory(t.db);
    type = await make.type({ name: 'Dholaks' });
    brand = await make.brand({ name: 'Haridwar Works' });
    const member = await staffMember(t, 'staff');
    admin = adminCalls(t, member.cookie);
    staffEmail = member.email;
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  async function create(overrides: Parameters<typeof productInput>[2] = {}): Promise<ProductDetail> {
    const answer = await admin('POST', '/products', productInput(type.id, brand.id, overrides));
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  }
  const sizesOf = (product: ProductDetail) =>
    product.sizes.map(({ id, sizeName, priceWithoutDiscount, priceReduction }) => ({
      id,
      sizeName,
      priceWithoutDiscount,
      priceReduction,
    }));

  it('creates a product with its sizes priced from price and reduction, and logs who did it', async () => {
    const product = await create({ title: 'Rosewood Dholak', urlKey: 'rosewood-dholak' });
    expect(product).toMatchObject({
      title: 'Rosewood Dholak',
      urlKey: 'rosewood-dholak',
      status: 'draft',
      productTypeName: 'Dholaks',
      brandName: 'Haridwar Works',
      // Blank SEO fields are filled from the title and the description.
      seoTitle: 'Rosewood Dholak',
      seoDescription: 'Sheesham shell, rope tuned. A second line.',
      oldUrlKeys: [],
    });
    expect(
      product.sizes.map(({ sizeName, price, priceWithoutDiscount, priceReduction, stock, ordered }) => ({
        sizeName,
        price,
        priceWithoutDiscount,
        priceReduction,
        stock,
        ordered,
      })),
    ).toEqual([
      {
        sizeName: 'Standard',
        price: 12_000,
        priceWithoutDiscount: 12_000,
        priceReduction: 0,
        stock: 5,
        ordered: false,
      },
      { sizeName: 'Large', price: 13_500, priceWithoutDiscount: 15_000, priceReduction: 10, stock: 3, ordered: false },
    ]);
    expect(product.audit).toEqual([
      expect.objectContaining({
        action: 'product.create',
        entityType: 'product',
        entityId: String(product.id),
        staffEmail,
        after: expect.objectContaining({ title: 'Rosewood Dholak', status: 'draft' }),
      }),
    ]);
  });

  it('lists products by title words in any case, by type with its child types, by brand and by status', async () => {
    const child = await make.type({ name: 'Travel dholaks', parentId: type.id });
    const otherBrand = await make.brand({ name: 'Mumbai Drums' });
    const otherType = await make.type({ name: 'Naals' });
    const stamp = Date.now().toString(36);
    const a = await create({ title: `Sangeet ${stamp} Dholak`, status: 'published' });
    const b = await create({ title: `Little sangeet ${stamp}`, productTypeId: child.id });
    const c = await create({
      title: `Sangeet ${stamp} Naal`,
      productTypeId: otherType.id,
      brandId: otherBrand.id,
      status: 'archived',
    });
    const list = async (query: string) =>
      ((await admin('GET', `/products?${query}`)).json() as ProductList).products.map((p) => p.id);

    expect(await list(`q=SANGEET%20${stamp}`)).toEqual([c.id, b.id, a.id]);
    expect(await list(`q=sangeet%20${stamp}&sort=title`)).toEqual([b.id, a.id, c.id]);
    expect(await list(`q=${stamp}&typeId=${type.id}`)).toEqual([b.id, a.id]);
    expect(await list(`q=${stamp}&typeId=${child.id}`)).toEqual([b.id]);
    expect(await list(`q=${stamp}&brandId=${otherBrand.id}`)).toEqual([c.id]);
    expect(await list(`q=${stamp}&status=published`)).toEqual([a.id]);
    // A typed % is a percent sign, not a wildcard.
    expect(await list(`q=${encodeURIComponent('%')}`)).toEqual([]);

    const page = (await admin('GET', `/products?q=${stamp}&pageSize=2&page=2`)).json() as ProductList;
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.products[0]).toMatchObject({
      id: a.id,
      status: 'published',
      productTypeName: 'Dholaks',
      brandName: 'Haridwar Works',
      sizes: 2,
      stock: 8,
      lowestPrice: 12_000,
    });
  });

  it('edits text and sizes: renames and reprices kept sizes, adds one with its stock, removes one, never writes stock', async () => {
    const product = await create();
    const [standard, large] = product.sizes;
    // A sale lands while the form is open: the save must not put the stock back.
    await t.db.kysely.updateTable('product_stocks').set({ stock: 4 }).where('id', '=', standard!.id).execute();

    const answer = await admin(
      'PUT',
      `/products/${product.id}`,
      productInput(type.id, brand.id, {
        title: 'Renamed Dholak',
        urlKey: product.urlKey,
        description: 'New words.',
        searchTags: 'wedding folk',
        status: 'published',
        sizes: [
          { id: standard!.id, sizeName: 'Standard (sheesham)', priceWithoutDiscount: 11_000, priceReduction: 50 },
          { sizeName: 'Mini', priceWithoutDiscount: 6_000, priceReduction: 0, stock: 7 },
        ],
      }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const edited = answer.json() as ProductDetail;
    expect(edited).toMatchObject({ title: 'Renamed Dholak', description: 'New words.', status: 'published' });
    expect(edited.sizes.map(({ id, sizeName, price, stock }) => ({ id, sizeName, price, stock }))).toEqual([
      { id: standard!.id, sizeName: 'Standard (sheesham)', price: 5_500, stock: 4 },
      { id: expect.any(Number), sizeName: 'Mini', price: 6_000, stock: 7 },
    ]);
    expect(
      await t.db.kysely.selectFrom('product_stocks').select('id').where('id', '=', large!.id).executeTakeFirst(),
    ).toBeUndefined();
    const entry = edited.audit.find((e) => e.action === 'product.update');
    expect(entry).toMatchObject({ staffEmail, before: { title: product.title, status: 'draft' } });
    expect(entry?.after).toMatchObject({ title: 'Renamed Dholak', status: 'published', searchTags: 'wedding folk' });
    expect(Object.keys(entry?.after as object)).not.toContain('urlKey');
  });

  it("refuses to write an existing size's stock, and a size of another product", async () => {
    const product = await create();
    const other = await create();
    const sizes = sizesOf(product);
    const withStock = await admin(
      'PUT',
      `/products/${product.id}`,
      productInput(type.id, brand.id, { urlKey: product.urlKey, sizes: [{ ...sizes[0]!, stock: 99 }] }),
    );
    expect(withStock.statusCode).toBe(400);
    expect(withStock.json().error.fields).toEqual([
      { field: 'sizes.0.stock', message: "An existing size's stock changes through a stock adjustment, not here" },
    ]);
    const stolen = await admin(
      'PUT',
      `/products/${product.id}`,
      productInput(type.id, brand.id, { urlKey: product.urlKey, sizes: [sizes[0]!, sizesOf(other)[1]!] }),
    );
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.fields).toEqual([{ field: 'sizes.1.id', message: expect.any(String) }]);
    const unchanged = (await admin('GET', `/products/${other.id}`)).json() as ProductDetail;
    expect(unchanged.sizes).toEqual(other.sizes);
  });

  it('keeps a size an order took: removing it is refused, naming it', async () => {
    const product = await create({ status: 'published' });
    const [standard, large] = product.sizes;
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: large!.id, requestedQty: 1 }]),
    });
    expect(committed.json().ok, committed.body).toBe(true);
    const answer = await admin(
      'PUT',
      `/products/${product.id}`,
      productInput(type.id, brand.id, { urlKey: product.urlKey, status: 'published', sizes: [sizesOf(product)[0]!] }),
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toMatchObject({
      code: 'CONFLICT',
      message:
        '"Large" has been ordered, so it stays on the product. Set the stock to 0 with a stock adjustment instead.',
      fields: [{ field: 'sizes', message: expect.stringContaining('"Large"') }],
    });
    const detail = (await admin('GET', `/products/${product.id}`)).json() as ProductDetail;
    expect(detail.sizes.map((s) => [s.id, s.ordered])).toEqual([
      [standard!.id, false],
      [large!.id, true],
    ]);
  });

  it('names every bad field, and unknown types and brands', async () => {
    const bad = await admin('POST', '/products', {
      ...productInput(type.id, brand.id),
      title: '  ',
      urlKey: 'Not A Key!',
      description: '',
      status: 'live',
      sizes: [
        { sizeName: '', priceWithoutDiscount: -1, priceReduction: 150, stock: 1 },
        { sizeName: 'Large', priceWithoutDiscount: 12.5, priceReduction: 0, stock: 1 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const fieldsOf = (answer: { json(): { error: { fields: Array<{ field: string }> } } }) =>
      new Set(answer.json().error.fields.map((f) => f.field));
    expect(fieldsOf(bad)).toEqual(
      new Set([
        'title',
        'urlKey',
        'description',
        'status',
        'sizes.0.sizeName',
        'sizes.0.priceWithoutDiscount',
        'sizes.0.priceReduction',
        'sizes.1.priceWithoutDiscount',
      ]),
    );
    expect(bad.json().error.message).toMatch(/^Invalid title, urlKey/);
    // Rules across a size's fields, and across sizes, are checked once each size is well formed.
    const sizeRules = await admin(
      'POST',
      '/products',
      productInput(type.id, brand.id, {
        sizes: [
          { sizeName: 'Large', priceWithoutDiscount: 100, priceReduction: 0 },
          { sizeName: 'Small', priceWithoutDiscount: 100, priceReduction: 0, stock: 1 },
        ],
      }),
    );
    expect(sizeRules.json().error.fields).toEqual([
      { field: 'sizes.0.stock', message: 'Please enter the stock of a new size' },
    ]);
    const sameNames = await admin(
      'POST',
      '/products',
      productInput(type.id, brand.id, {
        sizes: [
          { sizeName: 'Large', priceWithoutDiscount: 100, priceReduction: 0, stock: 1 },
          { sizeName: ' large', priceWithoutDiscount: 100, priceReduction: 0, stock: 1 },
        ],
      }),
    );
    expect(sameNames.json().error.fields).toEqual([
      { field: 'sizes.1.sizeName', message: 'Each size needs a name of its own' },
    ]);

    const noSizes = await admin('POST', '/products', productInput(type.id, brand.id, { sizes: [] }));
    expect(noSizes.json().error.fields).toEqual([
      { field: 'sizes', message: 'A product needs at least one size or style' },
    ]);
    const digitsOnly = await admin('POST', '/products', productInput(type.id, brand.id, { urlKey: '12345' }));
    expect(digitsOnly.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['urlKey']);

    const noType = await admin('POST', '/products', productInput(999_999_999, brand.id));
    expect(noType.statusCode).toBe(400);
    expect(noType.json().error.fields).toEqual([{ field: 'productTypeId', message: 'There is no such product type' }]);
    const noBrand = await admin('POST', '/products', productInput(type.id, 999_999_999));
    expect(noBrand.json().error.fields).toEqual([{ field: 'brandId', message: 'There is no such brand' }]);
    expect((await admin('GET', '/products/999999999')).statusCode).toBe(404);
  });

  it('gives each URL key to one product: a taken key is refused, naming the field', async () => {
    const first = await create();
    const taken = await admin('POST', '/products', productInput(type.id, brand.id, { urlKey: first.urlKey }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'CONFLICT',
      fields: [{ field: 'urlKey', message: `The URL key "${first.urlKey}" is taken by "${first.title}"` }],
    });
  });

  it('answers an old URL key with a 301 to the current one, from the API and every product page path', async () => {
    const product = await create({ urlKey: 'brass-dholak-old', status: 'published' });
    const rename = (urlKey: string) =>
      admin('PUT', `/products/${product.id}`, {
        ...productInput(type.id, brand.id, { urlKey, status: 'published', title: product.title }),
        sizes: sizesOf(product),
      });
    expect((await rename('brass-dholak-new')).statusCode).toBe(200);

    const api = await get('/api/products/brass-dholak-old');
    expect(api.statusCode).toBe(301);
    expect(api.headers.location).toBe('/api/products/brass-dholak-new');
    expect((await get('/api/products/brass-dholak-new')).json()).toMatchObject({ id: product.id });
    for (const path of [
      '/products/brass-dholak-old',
      '/product/brass-dholak-old',
      '/products/details/brass-dholak-old',
    ]) {
      const page = await get(`${path}?ref=mail`);
      expect(page.statusCode, path).toBe(301);
      expect(page.headers.location).toBe('/products/brass-dholak-new?ref=mail');
    }
    // Related products follow an old key too.
    expect((await get('/api/products/brass-dholak-old/4')).statusCode).toBe(200);

    // A second change: both old keys go straight to the newest, with no chain of hops.
    await rename('brass-dholak-newest');
    expect((await get('/api/products/brass-dholak-old')).headers.location).toBe('/api/products/brass-dholak-newest');
    expect((await get('/api/products/brass-dholak-new')).headers.location).toBe('/api/products/brass-dholak-newest');
    const detail = (await admin('GET', `/products/${product.id}`)).json() as ProductDetail;
    expect(detail.oldUrlKeys.sort()).toEqual(['brass-dholak-new', 'brass-dholak-old']);
    expect(detail.audit.at(-1)).toMatchObject({
      action: 'product.update',
      before: { urlKey: 'brass-dholak-new' },
      after: { urlKey: 'brass-dholak-newest' },
    });

    // Taking an old key back makes it the product's page again.
    await rename('brass-dholak-old');
    expect((await get('/api/products/brass-dholak-old')).statusCode).toBe(200);
    expect((await get('/api/products/brass-dholak-newest')).headers.location).toBe('/api/products/brass-dholak-old');

    // Another product may take an old key: its old links then lead to that product.
    const other = await create({ urlKey: 'brass-dholak-new', status: 'published' });
    expect((await get('/api/products/brass-dholak-new')).json()).toMatchObject({ id: other.id });

    // The old key of a product that is no longer shown is no page at all.
    await admin('POST', `/products/${product.id}/status`, { status: 'archived' });
    expect((await get('/api/products/brass-dholak-newest')).statusCode).toBe(404);
    expect((await get('/products/brass-dholak-newest')).statusCode).toBe(404);
  });

  it('duplicates a product as a draft with its own key, the same sizes and no stock', async () => {
    const product = await create({ urlKey: 'dupe-me', status: 'published', searchTags: 'wedding' });
    const first = await admin('POST', `/products/${product.id}/duplicate`);
    expect(first.statusCode, first.body).toBe(200);
    const second = (await admin('POST', `/products/${product.id}/duplicate`)).json() as ProductDetail;
    const copy = first.json() as ProductDetail;
    expect(copy).toMatchObject({
      title: `${product.title} (copy)`,
      urlKey: 'dupe-me-copy',
      status: 'draft',
      searchTags: 'wedding',
      description: product.description,
    });
    expect(second.urlKey).toBe('dupe-me-copy-2');
    expect(copy.sizes.map((s) => [s.sizeName, s.price, s.stock])).toEqual([
      ['Standard', 12_000, 0],
      ['Large', 13_500, 0],
    ]);
    expect(copy.sizes.map((s) => s.id)).not.toContain(product.sizes[0]!.id);
    expect(copy.audit).toEqual([
      expect.objectContaining({
        action: 'product.duplicate',
        after: expect.objectContaining({ copiedFrom: product.id }),
      }),
    ]);
  });

  it('publishes, archives and takes back to draft, each logged once', async () => {
    const product = await create();
    for (const status of ['published', 'published', 'archived', 'draft'] as const) {
      const answer = await admin('POST', `/products/${product.id}/status`, { status });
      expect(answer.json().status).toBe(status);
    }
    const bad = await admin('POST', `/products/${product.id}/status`, { status: 'hidden' });
    expect(bad.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['status']);
    const detail = (await admin('GET', `/products/${product.id}`)).json() as ProductDetail;
    expect(detail.audit.filter((e) => e.action === 'product.status').map((e) => [e.before, e.after])).toEqual([
      [{ status: 'draft' }, { status: 'published' }],
      [{ status: 'published' }, { status: 'archived' }],
      [{ status: 'archived' }, { status: 'draft' }],
    ]);
    const log = await admin('GET', '/audit?entityType=product');
    expect(log.json().entries.some((e: { entityId: string }) => e.entityId === String(product.id))).toBe(true);
  });

  it('keeps search in step with what staff edit: title, tags, sizes and description, on this database', async () => {
    const stamp = `zq${Date.now().toString(36)}`;
    const product = await create({ status: 'published', title: `Folk ${stamp}` });
    const search = async (title: string) =>
      (
        (await t.app.inject({ method: 'POST', url: '/api/search', payload: { title } })).json().results as Array<{
          id: number;
        }>
      ).map((p) => p.id);
    expect(await search(stamp)).toEqual([product.id]);
    await admin('PUT', `/products/${product.id}`, {
      ...productInput(type.id, brand.id, {
        title: 'Folk drum',
        urlKey: product.urlKey,
        status: 'published',
        searchTags: `tag${stamp}`,
        description: `Plays desc${stamp} rhythms.`,
      }),
      sizes: [{ ...sizesOf(product)[0]!, sizeName: `size${stamp}` }],
    });
    expect(await search(stamp)).toEqual([]);
    expect(await search(`tag${stamp}`)).toEqual([product.id]);
    expect(await search(`size${stamp}`)).toEqual([product.id]);
    expect(await search(`desc${stamp}`)).toEqual([product.id]);
    // The type's and brand's names are searchable too.
    expect(await search(`folk haridwar dholaks`)).toContain(product.id);
  });
});
