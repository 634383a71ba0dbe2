// @vitest-environment node
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Brand, Product, ProductType, SearchResponse } from '../../contract/catalog.ts';
import { CSRF_COOKIE } from '../../contract/csrf.ts';
import { pageLoaders } from '../../contract/page-loaders.ts';
import { pageRouteAt, type PublicPageName } from '../../contract/routes.ts';
import { renderPage } from '../entry-server.tsx';
import { queryCacheReader } from './catalog-reader.ts';

/**
 * Each public page's loader (src/contract/page-loaders.ts), run in the browser over its query cache:
 * it fills the cache under exactly the keys of the entries it answers, which the server writes into
 * the page's HTML from the same loader; and the page's own hooks read those keys, so a page drawn
 * from them (here by the server's renderer, which never asks the API) shows its content.
 */

const tabla: Product = {
  id: 7,
  title: 'Copper Tabla Set',
  urlKey: 'copper-tabla-set',
  brandId: 1,
  brandName: 'Taalwala',
  productTypeId: 2010,
  productTypeName: 'Dhols',
  description: 'A copper bayan and a sheesham dayan.',
  defaultImageUrl: '/images/products/tabla-1.svg',
  images: [],
  seoTitle: '',
  seoKeywords: '',
  seoDescription: '',
  stocks: [
    {
      id: 70,
      productStockId: 70,
      productId: 7,
      productSizeName: 'Standard',
      productTitle: 'Copper Tabla Set',
      stock: 3,
      price: 24_999,
      priceReduction: 0,
      priceWithoutDiscount: 24_999,
    },
  ],
  cardPrice: { productStockId: 70, price: 24_999, priceWithoutDiscount: 24_999, from: false, highestReduction: 0 },
};
const related: Product = { ...tabla, id: 8, title: 'Brass Dhol', urlKey: 'brass-dhol' };
const types: ProductType[] = [{ id: 2010, name: 'Dhols', parentId: -1, childTypes: [] }];
const brands: Brand[] = [{ id: 1, name: 'Taalwala' }];
const found: SearchResponse = {
  title: '',
  brandId: [],
  typeId: [2010],
  pageSize: 36,
  pageNumber: 1,
  sort: 'price-asc',
  totalResults: 1,
  isNextPage: false,
  results: [tabla],
};

/** The API as the browser's reader asks it; any other call is a 404 (the home sections' other types). */
const answers: Record<string, unknown> = {
  'GET /api/product-types': types,
  'GET /api/brands': brands,
  'GET /api/products/random/2010/8': [tabla],
  'GET /api/products/copper-tabla-set': tabla,
  'GET /api/products/7/4': [related],
  'POST /api/search': found,
};

function fakeApi(): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${path}`;
    asked.push(call);
    return call in answers
      ? Response.json(answers[call])
      : Response.json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 });
  });
  // A search is a POST, which echoes the CSRF cookie a shop page holds.
  vi.stubGlobal('document', { cookie: `${CSRF_COOKIE}=token-of-the-page` });
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const shop = {
  name: 'Bina Music',
  phone: '0121 496 0000',
  email: 'shop@example.com',
  address: '1 High Street',
  companyNumber: '01234567',
  facebookUrl: '',
  instagramUrl: '',
  mapLatitude: 52.5,
  mapLongitude: -1.9,
  takes: ['card' as const],
};

describe("the pages' loaders in the browser", () => {
  it.each<[string, PublicPageName, string[]]>([
    ['/home', 'home', ['PROFESSIONAL QUALITY DHOLS', 'Copper Tabla Set']],
    ['/search?t=2010&s=price-asc', 'search', ['1 PRODUCTS FOUND', 'Copper Tabla Set']],
    ['/products/copper-tabla-set', 'product', ['Copper Tabla Set', '249.99', 'Brass Dhol']],
    ['/about', 'about', ['About Us']],
  ])('fill the query cache for %s under the keys the page reads', async (url, page, content) => {
    const asked = fakeApi();
    const [path = '', search = ''] = url.split('?');
    const at = pageRouteAt(path);
    expect(at?.route.page).toBe(page);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const location = { params: at?.params ?? {}, query: new URLSearchParams(search) };

    const entries = await pageLoaders[page](queryCacheReader(client), location);

    // The cache holds what the loader answers, under its keys, and nothing more (a home section
    // whose type the catalogue lacks is left out on both sides).
    const keysOf = (keys: readonly (readonly unknown[])[]) => keys.map((key) => JSON.stringify(key)).sort();
    const cached = client
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.data !== undefined);
    expect(keysOf(cached.map((query) => query.queryKey))).toEqual(keysOf(entries.map((entry) => entry.key)));
    for (const entry of entries) expect(client.getQueryData(entry.key), JSON.stringify(entry.key)).toEqual(entry.data);
    // Each answer asked for once; a page gone to again asks nothing the cache holds (only what it
    // could not get, as the page's hooks would ask again too).
    expect(asked).toEqual([...new Set(asked)]);
    const before = asked.length;
    await pageLoaders[page](queryCacheReader(client), location);
    expect(asked.slice(before).filter((call) => call in answers)).toEqual([]);

    // The page's own hooks read those keys: drawn from the entries alone, it shows its content.
    vi.unstubAllGlobals();
    const html = (await renderPage(url, entries, shop)).body;
    for (const text of content) expect(html).toContain(text);
  });
});
