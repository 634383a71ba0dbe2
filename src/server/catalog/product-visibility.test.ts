import { afterEach, describe, expect, it } from 'vitest';
import type { ProductStatus } from '../../contract/catalog-rules.ts';
import { adminCalls, productInput } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * A draft or archived product is invisible to shoppers everywhere (docs/back-office.md#catalogue):
 * search (the in-process index, with a keyword and without), its page and its API answer, random
 * picks (the home sections), related products, offers, the sitemap and the cart's look-ups; a
 * basket line for it is refused. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
describe('products shoppers may not see', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A shop with one published product beside one of `status`, of the same type and brand. */
  async function shopWith(status: ProductStatus, env: Record<string, string> = {}) {
    t = await createTestApp({ env });
    const app = t;
    await checkoutFixtures(app.db);
    const make = catalogFactory(app.db);
    const type = await make.type();
    const brand = await make.brand();
    const word = `vis${Date.now().toString(36)}`;
    const shown = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: `Shown ${word}`,
      stocks: [{ price: 5000, priceWithoutDiscount: 6000, priceReduction: 17 }],
    });
    const hidden = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: `Hidden ${word}`,
      status,
      stocks: [{ price: 5000, priceWithoutDiscount: 6000, priceReduction: 17 }],
    });
    const get = (url: string) => app.app.inject({ method: 'GET', url });
    const post = (url: string, payload: object) => app.app.inject({ method: 'POST', url, payload });
    const ids = (products: Array<{ id: number }>) => products.map((p) => p.id);
    return { app, type, brand, word, shown, hidden, get, post, ids };
  }

  for (const status of ['draft', 'archived'] as const) {
    it(`leaves a ${status} product out of search, random picks, related products and the sitemap`, async () => {
      const { word, type, brand, shown, hidden, get, post, ids } = await shopWith(status);
      const search = async (payload: object) => (await post('/api/search', payload)).json();
      // The keyword goes through this database's full-text index; the filters alone do not.
      expect(await search({ title: word })).toMatchObject({ totalResults: 1 });
      expect(ids((await search({ title: word })).results)).toEqual([shown.id]);
      expect(ids((await search({ title: `hidden ${word}` })).results)).toEqual([]);
      expect(ids((await search({ typeId: [type.id] })).results)).toEqual([shown.id]);
      expect(ids((await search({ brandId: [brand.id] })).results)).toEqual([shown.id]);

      for (let i = 0; i < 5; i++) {
        expect(ids((await get(`/api/products/random/${type.id}/8`)).json())).toEqual([shown.id]);
        expect(ids((await get(`/api/products/random/brand/${brand.id}/8`)).json())).toEqual([shown.id]);
        expect(ids((await get(`/api/products/${shown.id}/4`)).json())).not.toContain(hidden.id);
      }

      const sitemap = (await get('/sitemap.xml')).body;
      expect(sitemap).toContain(`/products/${shown.urlKey}<`);
      expect(sitemap).not.toContain(hidden.urlKey);
    });

    it(`answers 404 for a ${status} product's page, API answer, related products and offers`, async () => {
      const { shown, hidden, get } = await shopWith(status);
      expect((await get(`/api/products/${shown.urlKey}`)).statusCode).toBe(200);
      for (const url of [
        `/api/products/${hidden.urlKey}`,
        `/api/products/${hidden.id}`,
        `/api/products/${hidden.urlKey}/4`,
        `/api/offers/${hidden.id}`,
        `/products/${hidden.urlKey}`,
        `/product/${hidden.urlKey}`,
        `/products/details/${hidden.urlKey}`,
      ]) {
        expect((await get(url)).statusCode, url).toBe(404);
      }
      expect((await get(`/products/${hidden.urlKey}`)).body).not.toContain('Hidden');
    });
  }

  it('refuses a basket line of an archived product as no longer available, and forgets a draft’s as unknown', async () => {
    const archived = await shopWith('archived');
    const draft = await archived.app.db.kysely
      .insertInto('products')
      .values({
        url_key: `draft-${archived.word}`,
        title: `Secret ${archived.word}`,
        brand_id: archived.brand.id,
        product_type_id: archived.type.id,
        description: '',
        seo_title: '',
        seo_keywords: '',
        seo_description: '',
        search_tags: '',
        search_text: '',
        status: 'draft',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const draftStock = await archived.app.db.kysely
      .insertInto('product_stocks')
      .values({
        product_id: draft.id,
        size_name: 'One',
        price: 100,
        price_reduction: 0,
        price_without_discount: 100,
        stock: 9,
        sort_order: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { post, get, shown, hidden } = archived;
    const [shownStock, hiddenStock] = [shown.stockIds[0]!, hidden.stockIds[0]!];
    const lines = [shownStock, hiddenStock, draftStock.id].map((id) => ({ productStockId: id, requestedQty: 1 }));

    const verified = (await post('/api/verify-basket', { items: lines })).json();
    expect(
      verified.items.map((l: { productStockId: number; errorCode: number | null; availableStock: number }) => [
        l.productStockId,
        l.errorCode,
        l.availableStock,
      ]),
    ).toEqual([
      [shownStock, null, 10],
      [hiddenStock, 5, 0],
    ]);
    expect(verified.itemsTotal).toBe(5000);

    // Nothing is taken: the commit answers the basket with the line refused.
    const committed = (await post('/api/basket', commitBody(lines))).json();
    expect(committed.ok).toBe(false);
    expect(
      committed.basket.items.find((l: { productStockId: number }) => l.productStockId === hiddenStock),
    ).toMatchObject({ hasError: true, errorCode: 5 });
    const stockLeft = await archived.app.db.kysely
      .selectFrom('product_stocks')
      .select(['id', 'stock'])
      .where('id', 'in', [shownStock, hiddenStock, draftStock.id])
      .orderBy('id')
      .execute();
    expect(stockLeft.map((s) => s.stock)).toEqual([10, 10, 9]);
    const alone = (await post('/api/basket', commitBody([{ productStockId: draftStock.id, requestedQty: 1 }]))).json();
    expect(alone.ok).toBe(false);

    // The cart's look-up: the archived line says none are left; the draft's is unknown.
    const details = (await get(`/api/product-stock?id=${hiddenStock}&id=${draftStock.id}`)).json();
    expect(details).toEqual([expect.objectContaining({ id: hiddenStock, stock: 0 })]);
  });

  it('shows a change at once on the instance that made it, though its caches keep answers for 10 s', async () => {
    const { app, word, type, shown, hidden, get, post, ids } = await shopWith('draft', {
      SEARCH_CACHE_SECONDS: '10',
      CATALOG_CACHE_SECONDS: '10',
    });
    const admin = adminCalls(app, (await staffMember(app, 'staff')).cookie);
    const everywhere = async () => ({
      search: ids((await post('/api/search', { title: word })).json().results),
      random: ids((await get(`/api/products/random/${type.id}/8`)).json()).sort((a, b) => a - b),
      page: (await get(`/api/products/${hidden.urlKey}`)).statusCode,
      types: (await get('/api/product-types')).json().map((t: { name: string }) => t.name),
    });
    // Every cache is filled while the product is a draft.
    expect(await everywhere()).toMatchObject({ search: [shown.id], random: [shown.id], page: 404 });

    expect((await admin('POST', `/products/${hidden.id}/status`, { status: 'published' })).statusCode).toBe(200);
    expect(await everywhere()).toMatchObject({
      search: [shown.id, hidden.id].sort(),
      random: [shown.id, hidden.id].sort(),
      page: 200,
    });

    const renamed = productInput(type.id, (await admin('GET', `/products/${hidden.id}`)).json().brandId, {
      title: `Renamed ${word}`,
      urlKey: hidden.urlKey,
      status: 'published',
      sizes: (await admin('GET', `/products/${hidden.id}`))
        .json()
        .sizes.map((s: { id: number; sizeName: string; priceWithoutDiscount: number; priceReduction: number }) => ({
          id: s.id,
          sizeName: s.sizeName,
          priceWithoutDiscount: s.priceWithoutDiscount,
          priceReduction: s.priceReduction,
        })),
    });
    await admin('PUT', `/products/${hidden.id}`, renamed);
    expect((await get(`/api/products/${hidden.urlKey}`)).json().title).toBe(`Renamed ${word}`);
    await admin('PUT', `/product-types/${type.id}`, { name: `Renamed type ${word}`, parentId: -1 });
    expect((await everywhere()).types).toContain(`Renamed type ${word}`);

    await admin('POST', `/products/${hidden.id}/status`, { status: 'archived' });
    expect(await everywhere()).toMatchObject({ search: [shown.id], random: [shown.id], page: 404 });
  });

  it('keeps keyword search in step with a product through draft, published, renamed, archived and back', async () => {
    const { app, word, type, shown, hidden, post, ids } = await shopWith('draft');
    const admin = adminCalls(app, (await staffMember(app, 'staff')).cookie);
    const found = async (title: string) => {
      const answer = (await post('/api/search', { title })).json();
      return { ids: ids(answer.results).sort((a, b) => a - b), total: answer.totalResults };
    };
    const both = [shown.id, hidden.id].sort((a, b) => a - b);
    const rename = async (title: string) => {
      const current = (await admin('GET', `/products/${hidden.id}`)).json();
      const input = productInput(type.id, current.brandId, {
        title,
        urlKey: current.urlKey,
        status: current.status,
        sizes: current.sizes.map(
          (s: { id: number; sizeName: string; priceWithoutDiscount: number; priceReduction: number }) => ({
            id: s.id,
            sizeName: s.sizeName,
            priceWithoutDiscount: s.priceWithoutDiscount,
            priceReduction: s.priceReduction,
          }),
        ),
      });
      expect((await admin('PUT', `/products/${hidden.id}`, input)).statusCode).toBe(200);
    };
    const setStatus = async (status: ProductStatus) =>
      expect((await admin('POST', `/products/${hidden.id}/status`, { status })).statusCode).toBe(200);

    // A draft renamed stays out of search under either title.
    await rename(`Draft ${word} Sarangi`);
    expect(await found(`${word} sarangi`)).toEqual({ ids: [], total: 0 });

    await setStatus('published');
    expect(await found(word)).toEqual({ ids: both, total: 2 });
    expect(await found(`${word} sarangi`)).toEqual({ ids: [hidden.id], total: 1 });

    await rename(`Published ${word} Esraj`);
    expect(await found(`${word} sarangi`)).toEqual({ ids: [], total: 0 });
    expect(await found(`${word} esraj`)).toEqual({ ids: [hidden.id], total: 1 });

    await setStatus('archived');
    expect(await found(word)).toEqual({ ids: [shown.id], total: 1 });
    await rename(`Archived ${word} Dilruba`);
    expect(await found(`${word} dilruba`)).toEqual({ ids: [], total: 0 });

    await setStatus('published');
    expect(await found(`${word} dilruba`)).toEqual({ ids: [hidden.id], total: 1 });
    expect(await found(`${word} esraj`)).toEqual({ ids: [], total: 0 });
    expect(await found(word)).toEqual({ ids: both, total: 2 });
  });
});
