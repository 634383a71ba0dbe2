// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Product } from '../../contract/catalog.ts';
import { pageQueryKeys, type PageDataEntry } from '../../contract/page-data.ts';
import { renderPage } from '../entry-server.tsx';

/**
 * The storefront renders in Node, with no DOM, as the server renders it (entry-server.tsx,
 * docs/decisions/0021-server-rendering.md): the same route table, lazy pages awaited, and the query
 * cache seeded from the page data the server writes (ADR 0019), so a page with its data in the page
 * is drawn whole. A module that reads `window` or `document` while it loads or renders fails here.
 */
const identity = {
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

async function renderOnServer(url: string, pageData: PageDataEntry[] = []): Promise<string> {
  return (await renderPage(url, pageData, identity)).body;
}

const tabla: Product = {
  id: 7,
  title: 'Copper Tabla Set',
  urlKey: 'copper-tabla-set',
  brandId: 1,
  brandName: 'Taalwala',
  productTypeId: 2035,
  productTypeName: 'Tablas',
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

describe('the shop rendered on the server', () => {
  it.each([
    ['/about', 'About Us'],
    ['/termsandconditions', 'Terms Of Use'],
    ['/returns', 'Model cancellation form'],
    ['/contact', 'CONTACT US'],
    ['/home', 'Dhols made for the baraat'],
    ['/search?k=dhol', 'Search for products'],
    ['/no-such-page', '404'],
  ])('renders %s with its content', async (url, content) => {
    const html = await renderOnServer(url);
    expect(html).toContain('<main');
    expect(html).toContain(content);
    // The shop's own identity, not the defaults a page without one would show.
    expect(html).toContain('0121 496 0000');
  });

  it('renders a product page from the page data: title, price and size', async () => {
    const html = await renderOnServer('/products/copper-tabla-set', [
      { key: pageQueryKeys.product('copper-tabla-set'), data: tabla },
    ]);
    expect(html).toContain('Copper Tabla Set');
    expect(html).toContain('249.99');
    expect(html).toContain('Standard');
  });
});
