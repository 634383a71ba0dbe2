import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_SECTION_PRODUCT_COUNT, homeSections, RELATED_PRODUCT_COUNT } from '../../contract/catalog-rules.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { fakeBuiltWebApp } from '../../../test/helpers/built-web-app.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/** What the server writes into pages, and the crawler files, with a stand-in for the built app. */
describe('pages, head tags, sitemap and robots', () => {
  let t: TestApp;
  let webRoot: string;
  let built: ReturnType<typeof fakeBuiltWebApp>;
  let product: { urlKey: string };
  let draft: { urlKey: string };
  let typeId: number;
  beforeAll(async () => {
    built = fakeBuiltWebApp();
    webRoot = built.root;
    t = await createTestApp({ webRoot, env: { SHOP_NAME: 'Test </script> Shop', PUBLIC_URL: 'https://shop.example' } });
    const make = catalogFactory(t.db);
    const type = await make.type({ name: 'Tablas' });
    const brand = await make.brand({ name: 'Taalwala' });
    product = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Copper <b>Tabla</b> Set',
      stocks: [
        { price: 12999, stock: 0 },
        { price: 15999, stock: 2 },
      ],
    });
    typeId = type.id;
    draft = await make.product({ typeId: type.id, brandId: brand.id, title: 'Unreleased Tabla', status: 'draft' });
  });
  afterAll(async () => {
    await t.close();
    built.remove();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers the bare address with the home page, for browsers and crawlers without JavaScript', async () => {
    // (It was an empty page the app alone sent on, so without JavaScript the shop's own address showed
    // nothing; then a 301 to /home, but the site root is the home page's canonical address, which
    // must not redirect: issue 31.)
    for (const asked of ['/', '/?utm_source=leaflet']) {
      const response = await get(asked);
      expect(response.statusCode).toBe(200);
      expect(response.headers.location).toBeUndefined();
      // The home page, as /home is (its canonical link: page-descriptions.test.ts).
      expect(response.body).toBe((await get('/home')).body);
    }
  });

  it.each([
    '/home',
    '/search',
    '/shoppingcart',
    '/shopping-cart',
    '/checkout-details',
    '/order-recovery/abc',
    '/verify-account/t1',
    '/about',
    '/termsandconditions',
    '/returns',
  ])('answers %s with the app and a 200', async (path) => {
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');
  });

  it('writes a searched keyword into the head escaped, and asks crawlers not to index the results', async () => {
    const page = await get('/search?k=%3Cscript%3Ealert(3)%3C%2Fscript%3E%20%22dhol%22&b=1');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      '<title data-server-head>Search results for “&#60;script&#62;alert(3)&#60;/script&#62; &#34;dhol&#34;” | Test &#60;/script&#62; Shop</title>',
    );
    expect(page.body).not.toContain('<script>alert(3)');
    expect(page.body).toContain('<meta data-server-head name="robots" content="noindex">');
    expect(page.body).toContain('<link data-server-head rel="canonical" href="https://shop.example/search">');
    expect((await get('/search')).body).not.toContain('noindex');
  });

  it.each(['/nothing-here', '/products', '/products/a/b/c', '/home/extra'])(
    'answers %s with the app and a 404',
    async (path) => {
      const response = await get(path);
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<div id="root">');
    },
  );

  it('writes the shop identity into every page as inert JSON', async () => {
    const body = (await get('/home')).body;
    const json = /<script id="shop-config" type="application\/json">(.*?)<\/script>/.exec(body)?.[1] ?? '';
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json)).toMatchObject({ name: 'Test </script> Shop', phone: expect.any(String) });
    expect(body).toContain('<title>Test &#60;/script&#62; Shop</title>');
  });

  it('writes a product page head for crawlers: title, description, canonical, Open Graph and JSON-LD', async () => {
    const response = await get(`/products/${product.urlKey}`);
    expect(response.statusCode).toBe(200);
    const body = response.body;
    expect(body).toContain(
      '<title data-server-head>Copper &#60;b&#62;Tabla&#60;/b&#62; Set | Test &#60;/script&#62; Shop</title>',
    );
    expect(body).toContain(
      `<link data-server-head rel="canonical" href="https://shop.example/products/${product.urlKey}">`,
    );
    expect(body).toContain('<meta property="og:type" content="product">');
    expect(body.match(/<title/g)).toHaveLength(1);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(body)?.[1] ?? '{}');
    expect(ld).toMatchObject({
      '@type': 'Product',
      name: 'Copper <b>Tabla</b> Set',
      brand: { name: 'Taalwala' },
      offers: {
        priceCurrency: 'GBP',
        lowPrice: '129.99',
        highPrice: '159.99',
        availability: 'https://schema.org/InStock',
      },
    });
    for (const path of [`/product/${product.urlKey}`, `/products/details/${product.urlKey}`]) {
      expect((await get(path)).body).toContain('"@type":"Product"');
    }
  });

  it('answers an unknown product page with a 404 and no product head', async () => {
    const response = await get('/products/no-such-product');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('ld+json');
    // A malformed address is refused before routing.
    expect((await get('/products/%E0%A4%A')).statusCode).toBe(400);
  });

  it('sends a page compressed to a browser that asks, the same page to one that does not', async () => {
    const url = `/search?t=${typeId}`;
    const plain = await get(url);
    const compressed = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    // Content codings are named in any case (RFC 9110), as the static assets already took them.
    const shouted = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'GZIP' } });
    expect(shouted.headers['content-encoding']).toBe('gzip');
  });

  it('serves hashed assets for a year and the page itself uncached', async () => {
    expect((await get('/assets/app-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/home')).headers['cache-control']).toBe('no-cache');
  });

  it('lists the shop pages and every product in /sitemap.xml, and points to it from /robots.txt', async () => {
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    // The home page under its canonical address, the site root (issue 31).
    expect(sitemap.body).toContain('<loc>https://shop.example/</loc>');
    expect(sitemap.body).toContain(`<loc>https://shop.example/products/${product.urlKey}</loc>`);
    const robots = await get('/robots.txt');
    expect(robots.body).toContain('Sitemap: https://shop.example/sitemap.xml');
    expect(robots.body).toContain('Disallow: /api/');
  });

  describe('the catalogue data a page draws first, written into it', () => {
    /** The page's data entries, read as the app reads them. */
    function pageData(body: string): Array<{ key: unknown[]; data: unknown }> {
      const json = /<script id="shop-page-data" type="application\/json">(.*?)<\/script>/s.exec(body)?.[1];
      if (json === undefined) return [];
      expect(json).not.toContain('</');
      return JSON.parse(json);
    }
    const entry = (body: string, name: string) => pageData(body).find((e) => e.key[0] === name);
    const apiJson = async (url: string, body?: object) =>
      (await t.app.inject(body ? { method: 'POST', url, payload: body } : { method: 'GET', url })).json();

    it('gives every page the type tree and brands the menu and footer show, as the API answers them', async () => {
      for (const path of ['/home', '/about', '/shoppingcart', `/products/${product.urlKey}`, '/search']) {
        const body = (await get(path)).body;
        expect(entry(body, 'product-types')).toEqual({
          key: ['product-types'],
          data: await apiJson('/api/product-types'),
        });
        expect(entry(body, 'brands')).toEqual({ key: ['brands'], data: await apiJson('/api/brands') });
      }
    });

    it("gives /search the first page of the address's results, under the key the search page asks for", async () => {
      const body = (await get(`/search?t=${typeId}&k=tabla&s=price-asc`)).body;
      const answer = await apiJson('/api/search', { title: 'tabla', typeId: [typeId], sort: 'price-asc' });
      expect(answer.results.map((p: { urlKey: string }) => p.urlKey)).toEqual([product.urlKey]);
      expect(entry(body, 'search')).toEqual({
        key: ['search', 'tabla', [typeId], [], 'price-asc'],
        data: { pages: [answer], pageParams: [1] },
      });
      // Read like the page reads it: unknown types dropped, a one-letter keyword is no keyword.
      const plain = (await get('/search?t=999999&k=t')).body;
      expect(entry(plain, 'search')).toEqual({
        key: ['search', '', [], [], 'relevance'],
        data: { pages: [await apiJson('/api/search', {})], pageParams: [1] },
      });
    });

    it("gives a product page the product as GET /api/products answers it, and a draft's page nothing", async () => {
      const body = (await get(`/products/${product.urlKey}`)).body;
      expect(entry(body, 'product')).toEqual({
        key: ['product', product.urlKey],
        data: await apiJson(`/api/products/${product.urlKey}`),
      });
      const hidden = await get(`/products/${draft.urlKey}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.body).not.toContain('Unreleased');
      expect(entry((await get('/search?k=unreleased')).body, 'search')).toMatchObject({
        data: { pages: [{ totalResults: 0, results: [] }] },
      });
    });

    it("gives /home each section's products, under the key the home page asks for", async () => {
      const make = catalogFactory(t.db);
      const dhols = await make.type({ id: 2010, name: 'Dhols' });
      const brand = await make.brand({ name: 'Dholwala' });
      const dhol = await make.product({ typeId: dhols.id, brandId: brand.id, title: 'Bhangra Dhol' });
      const body = (await get('/home')).body;
      const sections = pageData(body).filter((e) => e.key[0] === 'random-products');
      // Each section of a type the catalogue has (here the dhols alone), under the home page's own key.
      expect(homeSections.map((section) => section.typeId)).toContain(2010);
      expect(sections.map((e) => e.key)).toEqual([['random-products', 2010, HOME_SECTION_PRODUCT_COUNT]]);
      const dholSection = sections.find((e) => e.key[1] === 2010);
      expect(dholSection?.data).toEqual(await apiJson(`/api/products/random/2010/${HOME_SECTION_PRODUCT_COUNT}`));
      expect((dholSection?.data as Array<{ urlKey: string }>).map((p) => p.urlKey)).toEqual([dhol.urlKey]);
    });

    it('gives a product page its related products, under the key the page asks for', async () => {
      const make = catalogFactory(t.db);
      const type = await make.type({ name: 'Harmoniums' });
      const brand = await make.brand({ name: 'Bina' });
      const first = await make.product({ typeId: type.id, brandId: brand.id, title: 'Scale Changer Harmonium' });
      const second = await make.product({ typeId: type.id, brandId: brand.id, title: 'Folding Harmonium' });
      const body = (await get(`/products/${first.urlKey}`)).body;
      const related = entry(body, 'related-products');
      expect(related?.key).toEqual(['related-products', first.id]);
      // Its own type first, then others, as GET /api/products/{id}/{count} picks them.
      const keys = (related?.data as Array<{ urlKey: string }>).map((p) => p.urlKey);
      expect(keys[0]).toBe(second.urlKey);
      expect(keys).not.toContain(first.urlKey);
      expect(keys.length).toBeLessThanOrEqual(RELATED_PRODUCT_COUNT);
    });

    it('keeps a hostile keyword inert: no element closed, the text kept as typed', async () => {
      const keyword = '</script><script>alert(4)</script>';
      const body = (await get(`/search?k=${encodeURIComponent(keyword)}`)).body;
      expect(body).not.toContain('<script>alert(4)');
      expect(entry(body, 'search')?.key).toEqual(['search', keyword, [], [], 'relevance']);
    });
  });
});
