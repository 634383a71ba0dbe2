import { productSchema, type Product } from '../../contract/catalog.ts';
import type { PageDataEntry } from '../../contract/page-data.ts';
import { loadLayoutData, pageDataLoaderOf, pageLoaders } from '../../contract/page-loaders.ts';
import { penceToDecimal } from '../../contract/money.ts';
import { pageRouteAt } from '../../contract/routes.ts';
import { searchPageTitle } from '../../contract/search-filters.ts';
import { photoSrcset, productPageImageSizes } from '../../contract/photos.ts';
import type { ShopIdentity } from '../../contract/shop.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { NotFoundError } from '../errors.ts';
import { escapeHtml, scriptJson } from '../http/html.ts';
import { catalogReader } from './catalog-reader.ts';

/**
 * What the server writes into the HTML head before the app starts, so crawlers and link previews
 * see a product's title, description, canonical link, Open Graph tags and JSON-LD without
 * JavaScript (docs/rules.md#pages-and-routes). The app removes these `data-server-head` tags and renders its own.
 */

export interface PageHead {
  status: number;
  tags: string;
  /** A product page whose URL key has changed: a 301 to this path (docs/back-office.md#catalogue). */
  redirect?: string;
  /** Catalogue answers the page draws first, written into it (its loader's, contract/page-loaders.ts). */
  data: PageDataEntry[];
  /** The data could not be read this time: the page is served without it, and kept by no cache. */
  dataMissing?: boolean;
}

function productTags(product: Product, shop: ShopIdentity, publicUrl: string): string {
  const url = `${publicUrl}/products/${encodeURIComponent(product.urlKey)}`;
  const image = product.defaultImageUrl ? `${publicUrl}${product.defaultImageUrl}` : '';
  const prices = product.stocks.map((s) => s.price);
  const inStock = product.stocks.some((s) => s.stock > 0);
  const title = `${product.seoTitle} | ${shop.name}`;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.title,
    description: product.seoDescription,
    image: product.images.map((i) => `${publicUrl}${i.imageUrl}`),
    sku: String(product.id),
    brand: { '@type': 'Brand', name: product.brandName },
    offers: {
      '@type': 'AggregateOffer',
      priceCurrency: 'GBP',
      lowPrice: penceToDecimal(Math.min(...prices)),
      highPrice: penceToDecimal(Math.max(...prices)),
      offerCount: product.stocks.length,
      availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      url,
    },
  };
  return [
    `<title data-server-head>${escapeHtml(title)}</title>`,
    `<meta data-server-head name="description" content="${escapeHtml(product.seoDescription)}">`,
    `<meta data-server-head name="keywords" content="${escapeHtml(product.seoKeywords)}">`,
    `<link data-server-head rel="canonical" href="${escapeHtml(url)}">`,
    `<meta property="og:type" content="product">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(product.seoDescription)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    image ? `<meta property="og:image" content="${escapeHtml(image)}">` : '',
    mainPhotoPreload(product),
    `<meta property="og:site_name" content="${escapeHtml(shop.name)}">`,
    `<script type="application/ld+json">${scriptJson(jsonLd)}</script>`,
  ].join('');
}

/**
 * An uploaded main photo is fetched with the page, not once the app has asked for the product: its
 * best format at the width the gallery will choose (the same srcset and sizes), at high priority.
 */
function mainPhotoPreload(product: Product): string {
  const photo = product.images[0]?.photo;
  const format = photo?.formats[0];
  if (!photo || !format) return '';
  return `<link rel="preload" as="image" type="image/${format}" fetchpriority="high" imagesrcset="${escapeHtml(
    photoSrcset(photo, format),
  )}" imagesizes="${escapeHtml(productPageImageSizes)}">`;
}

/**
 * A search for a keyword: a link preview names it, and crawlers are asked not to index the
 * endless pages of results (the canonical search page is /search itself).
 */
function searchTags(keyword: string, shop: ShopIdentity, publicUrl: string): string {
  return [
    `<title data-server-head>${escapeHtml(`${searchPageTitle(keyword)} | ${shop.name}`)}</title>`,
    `<meta data-server-head name="robots" content="noindex">`,
    `<link data-server-head rel="canonical" href="${escapeHtml(`${publicUrl}/search`)}">`,
  ].join('');
}

export function createPageHead(deps: {
  catalog: CatalogService;
  /** The shop's identity as this instance knows it now (the owner's settings). */
  shop: () => Promise<ShopIdentity>;
  publicUrl: string;
  log: { warn: (details: object, message: string) => void };
}) {
  const reader = catalogReader(deps.catalog);
  // The data only lets the page draw sooner: without it the app asks the API as it always could, so
  // a failure here (a search refused while the shop is busy, say) costs speed, never the page.
  async function withData(head: Omit<PageHead, 'data'>, load: () => Promise<PageDataEntry[]>): Promise<PageHead> {
    try {
      return { ...head, data: await load() };
    } catch (error) {
      deps.log.warn({ err: error }, 'page data left out of the page');
      return { ...head, data: [], dataMissing: true };
    }
  }
  const layoutOnly = (status: number, query: URLSearchParams) =>
    withData({ status, tags: '' }, () => loadLayoutData(reader, { params: {}, query }));

  return async function pageHead(path: string, query: URLSearchParams = new URLSearchParams()): Promise<PageHead> {
    // The bare address is the home page's canonical address (the spec; ADR 0003), so it is the home
    // page, not a redirect to /home: a canonical link must not point at a redirect. A browser shows
    // it at /home, as the spec's route table sends it there (main.tsx).
    const at = pageRouteAt(path);
    const page = at?.route.page;
    if (page !== 'product' || at?.params.key === undefined) {
      const keyword = page === 'search' ? (query.get('k') ?? '').trim().slice(0, 100) : '';
      const tags = keyword ? searchTags(keyword, await deps.shop(), deps.publicUrl) : '';
      // Its own loader's data, or for a shopper's page (or no page) the layout's: menus and footer.
      // (Of the public pages, only the product's has parameters.)
      return withData({ status: 200, tags }, () => pageDataLoaderOf(page)(reader, { params: {}, query }));
    }
    let key: string;
    try {
      key = decodeURIComponent(at.params.key);
    } catch {
      return layoutOnly(404, query);
    }
    try {
      const found = await deps.catalog.lookUp(key);
      if ('movedTo' in found)
        return { status: 301, tags: '', data: [], redirect: `/products/${encodeURIComponent(found.movedTo)}` };
      // The product the head was made from is the one the page draws.
      const withProduct = { ...reader, product: async () => productSchema.parse(found.product) };
      return withData({ status: 200, tags: productTags(found.product, await deps.shop(), deps.publicUrl) }, () =>
        pageLoaders.product(withProduct, { params: { key }, query }),
      );
    } catch (error) {
      // An unknown product: the app sends the shopper on to /search; crawlers get a 404, and a browser
      // without scripts the 404 page, drawn with the menus and footer every page has (web-app.ts).
      if (error instanceof NotFoundError) return layoutOnly(404, query);
      throw error;
    }
  };
}
