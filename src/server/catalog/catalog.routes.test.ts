import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  productListSchema,
  productSchema,
  productTypeTreeSchema,
  stockDetailListSchema,
} from '../../contract/catalog.ts';
import { URL_KEY_MAX } from '../../contract/catalog-rules.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

describe('catalogue API', () => {
  let t: TestApp;
  let make: ReturnType<typeof catalogFactory>;
  beforeAll(async () => {
    t = await createTestApp();
    make = catalogFactory(t.db);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('GET /api/product-types answers the type tree with childTypes', async () => {
    const parent = await make.type({ name: 'Drums' });
    const child = await make.type({ name: 'Dhols', parentId: parent.id });
    const response = await get('/api/product-types');
    expect(response.statusCode).toBe(200);
    const tree = productTypeTreeSchema.parse(response.json());
    const found = tree.find((node) => node.id === parent.id);
    expect(found).toEqual({
      id: parent.id,
      name: 'Drums',
      parentId: -1,
      childTypes: [{ id: child.id, name: 'Dhols', parentId: parent.id, childTypes: [] }],
    });
    expect(tree.some((node) => node.id === child.id)).toBe(false);
  });

  it('GET /api/brands, /api/countries and /api/titles answer their lists', async () => {
    const brand = await make.brand({ name: 'Aardvark Drums' });
    expect((await get('/api/brands')).json()).toContainEqual({ id: brand.id, name: 'Aardvark Drums' });
    await t.db.kysely.insertInto('countries').values({ id: 1, name: 'United Kingdom', iso_code: 'GB' }).execute();
    expect((await get('/api/countries')).json()).toEqual([{ id: 1, name: 'United Kingdom', isoCode: 'GB' }]);
    // The spec's titles are in every shop's database, demo catalogue or not: without them no one could
    // register or check out, and the back office has no page for them.
    expect((await get('/api/titles')).json()).toEqual([
      { id: 1, name: 'MR' },
      { id: 2, name: 'MRS' },
      { id: 3, name: 'MS' },
    ]);
  });

  it('GET /api/products/{urlKey or id} answers the whole product with stocks and images', async () => {
    const type = await make.type({ name: 'Tablas' });
    const brand = await make.brand({ name: 'Taalwala' });
    const made = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Copper Tabla Set',
      description: 'Line one.\nLine two.',
      stocks: [
        { sizeName: 'C', price: 9000, priceReduction: 10, priceWithoutDiscount: 10000, stock: 3 },
        { sizeName: 'D', price: 12000, stock: 0 },
      ],
      images: ['/images/products/tabla-1.svg', '/images/products/tabla-2.svg'],
    });
    const byKey = await get(`/api/products/${made.urlKey}`);
    expect(byKey.statusCode).toBe(200);
    const product = productSchema.parse(byKey.json());
    expect(product).toMatchObject({
      id: made.id,
      title: 'Copper Tabla Set',
      urlKey: made.urlKey,
      brandName: 'Taalwala',
      productTypeId: type.id,
      description: 'Line one.\nLine two.',
      defaultImageUrl: '/images/products/tabla-1.svg',
      images: [{ imageUrl: '/images/products/tabla-1.svg' }, { imageUrl: '/images/products/tabla-2.svg' }],
    });
    expect(product.stocks).toEqual([
      expect.objectContaining({
        id: made.stockIds[0],
        productStockId: made.stockIds[0],
        productSizeName: 'C',
        price: 9000,
        priceReduction: 10,
        priceWithoutDiscount: 10000,
        stock: 3,
        productTitle: 'Copper Tabla Set',
      }),
      expect.objectContaining({
        id: made.stockIds[1],
        productSizeName: 'D',
        price: 12000,
        priceReduction: 0,
        stock: 0,
      }),
    ]);
    expect((await get(`/api/products/${made.id}`)).json()).toEqual(product);
  });

  it('answers a product whose URL key is as long as staff may make it', async () => {
    const type = await make.type({ name: 'Sitars' });
    const brand = await make.brand({ name: 'Long Names' });
    const urlKey = `sitar-${'a'.repeat(URL_KEY_MAX - 6)}`;
    const made = await make.product({ typeId: type.id, brandId: brand.id, title: 'Sitar', urlKey });
    for (const url of [`/api/products/${urlKey}`, `/api/products/${urlKey}/4`]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
    }
    expect(productSchema.parse((await get(`/api/products/${urlKey}`)).json()).id).toBe(made.id);
    // Longer than any URL key: refused by the shop's own check, in its own words.
    const tooLong = await get(`/api/products/${'a'.repeat(URL_KEY_MAX + 1)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(JSON.stringify(tooLong.json())).toContain('key');
  });

  it('answers 404 for an unknown product', async () => {
    const response = await get('/api/products/no-such-thing');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such product' } });
    expect((await get('/api/products/999999999')).statusCode).toBe(404);
    // Past the database's integers (PostgreSQL refused it with an error: a 500).
    for (const key of ['9999999999', '2147483648'])
      expect((await get(`/api/products/${key}`)).json()).toEqual({
        error: { code: 'NOT_FOUND', message: 'No such product' },
      });
  });

  it('GET /api/products/random/{typeId}/{count} picks from a type and its children', async () => {
    const parent = await make.type();
    const childA = await make.type({ parentId: parent.id });
    const childB = await make.type({ parentId: parent.id });
    const other = await make.type();
    const brand = await make.brand();
    for (const typeId of [childA.id, childA.id, childB.id, other.id]) await make.product({ typeId, brandId: brand.id });
    const all = productListSchema.parse((await get(`/api/products/random/${parent.id}/10`)).json());
    expect(all).toHaveLength(3);
    expect(new Set(all.map((p) => p.productTypeId))).toEqual(new Set([childA.id, childB.id]));
    expect((await get(`/api/products/random/${parent.id}/2`)).json()).toHaveLength(2);
    expect((await get(`/api/products/random/${childB.id}/8`)).json()).toHaveLength(1);
  });

  it('GET /api/products/random/brand/{brandId}/{count} picks from one brand', async () => {
    const type = await make.type();
    const brand = await make.brand();
    const otherBrand = await make.brand();
    await make.product({ typeId: type.id, brandId: brand.id });
    await make.product({ typeId: type.id, brandId: brand.id });
    await make.product({ typeId: type.id, brandId: otherBrand.id });
    const products = productListSchema.parse((await get(`/api/products/random/brand/${brand.id}/8`)).json());
    expect(products).toHaveLength(2);
    expect(products.every((p) => p.brandId === brand.id)).toBe(true);
  });

  it('GET /api/products/{idOrUrlKey}/{count} answers related products, same type first, never itself', async () => {
    const parent = await make.type();
    const own = await make.type({ parentId: parent.id });
    const sibling = await make.type({ parentId: parent.id });
    const brand = await make.brand();
    const product = await make.product({ typeId: own.id, brandId: brand.id });
    const sameType = [
      await make.product({ typeId: own.id, brandId: brand.id }),
      await make.product({ typeId: own.id, brandId: brand.id }),
    ];
    const siblingProduct = await make.product({ typeId: sibling.id, brandId: brand.id });
    const two = productListSchema.parse((await get(`/api/products/${product.urlKey}/2`)).json());
    expect(new Set(two.map((p) => p.id))).toEqual(new Set(sameType.map((p) => p.id)));
    const four = productListSchema.parse((await get(`/api/products/${product.id}/4`)).json());
    expect(four).toHaveLength(4);
    expect(four.map((p) => p.id)).not.toContain(product.id);
    expect(new Set(four.slice(0, 2).map((p) => p.id))).toEqual(new Set(sameType.map((p) => p.id)));
    expect(four[2]?.id).toBe(siblingProduct.id);
    expect(new Set(four.map((p) => p.id)).size).toBe(4);
    expect((await get('/api/products/no-such-thing/4')).statusCode).toBe(404);
  });

  it('GET /api/product-stock answers each asked-for stock entry with its product details', async () => {
    const type = await make.type();
    const brand = await make.brand();
    const a = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Dhol A',
      stocks: [
        { sizeName: 'Big', price: 500 },
        { sizeName: 'Small', price: 400 },
      ],
      images: ['/images/products/dhol-4.svg'],
    });
    const response = await get(`/api/product-stock?id=${a.stockIds[1]}&id=${a.stockIds[0]}&id=99999999`);
    expect(response.statusCode).toBe(200);
    const details = stockDetailListSchema.parse(response.json());
    expect(details.map((d) => [d.id, d.productSizeName, d.price, d.productTitle, d.urlKey, d.imageUrl])).toEqual([
      [a.stockIds[1], 'Small', 400, 'Dhol A', a.urlKey, '/images/products/dhol-4.svg'],
      [a.stockIds[0], 'Big', 500, 'Dhol A', a.urlKey, '/images/products/dhol-4.svg'],
    ]);
    expect((await get(`/api/product-stock?id=${a.stockIds[0]}`)).json()).toHaveLength(1);
  });

  it('GET /api/offers/{productId} lists the discounted entries of a product', async () => {
    const type = await make.type();
    const brand = await make.brand();
    const p = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Harmonium',
      stocks: [
        { sizeName: 'A', price: 9000, priceReduction: 10, priceWithoutDiscount: 10000 },
        { sizeName: 'B', price: 5000 },
      ],
    });
    expect((await get(`/api/offers/${p.id}`)).json()).toEqual([
      {
        productId: p.id,
        productStockId: p.stockIds[0],
        description: 'Save 10% on Harmonium (A)',
        priceReduction: 10,
        price: 9000,
        priceWithoutDiscount: 10000,
      },
    ]);
    const plain = await make.product({ typeId: type.id, brandId: brand.id });
    expect((await get(`/api/offers/${plain.id}`)).json()).toEqual([]);
    expect((await get('/api/offers/99999999')).statusCode).toBe(404);
  });

  describe('bad input', () => {
    it.each([
      ['/api/products/random/abc/8', 'typeId'],
      ['/api/products/random/2010/0', 'count'],
      ['/api/products/random/2010/-3', 'count'],
      ['/api/products/random/2010/1.5', 'count'],
      ['/api/products/random/2010/37', 'count'],
      ['/api/products/random/99999999999/8', 'typeId'],
      ['/api/products/random/brand/x/8', 'brandId'],
      ['/api/products/some-key/500', 'count'],
      ['/api/product-stock', 'id'],
      ['/api/product-stock?id=abc', 'id.0'],
      ['/api/product-stock?id=0', 'id.0'],
      ['/api/offers/abc', 'productId'],
    ])('GET %s is a 400 naming %s', async (url, field) => {
      const response = await get(url);
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('answers 404 for unknown type and brand ids', async () => {
      expect((await get('/api/products/random/99999999/8')).statusCode).toBe(404);
      expect((await get('/api/products/random/brand/99999999/8')).statusCode).toBe(404);
    });

    it('answers 404 JSON for an unknown /api path and method', async () => {
      for (const [method, url] of [
        ['GET', '/api/nothing-here'],
        ['DELETE', '/api/brands'],
      ] as const) {
        const response = await t.app.inject({ method, url });
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('NOT_FOUND');
      }
    });

    it.each([
      ['malformed JSON', '{"title": ', 'application/json', 400, 'MALFORMED_JSON'],
      ['an empty JSON body', '', 'application/json', 400, 'MALFORMED_JSON'],
      ['a wrong content type', 'title=dhol', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['a prototype-poisoning key', '{"__proto__": {"x": 1}}', 'application/json', 400, undefined],
      [
        'a body that is too large',
        JSON.stringify({ title: 'x'.repeat(300_000) }),
        'application/json',
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ])('POST /api/search with %s is a %i', async (_, payload, contentType, status, code) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/search',
        payload,
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(status);
      if (code) expect(response.json().error.code).toBe(code);
    });
  });
});
