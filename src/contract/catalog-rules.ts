/** Catalogue limits and constants, free of zod so browsing pages can import them cheaply. */
export const MAX_RANDOM_COUNT = 36;
export const DEFAULT_PAGE_SIZE = 36;
export const MAX_PAGE_SIZE = 100;
export const MAX_FILTER_IDS = 50;
export const MAX_KEYWORD_LENGTH = 100;
export const TOP_LEVEL_PARENT_ID = -1;
/** docs/rules.md#catalogue-and-search: a keyword needs 2 characters to search and more than 2 to go into the URL. */
export const MIN_SEARCH_KEYWORD = 2;
export const MIN_URL_KEYWORD = 3;
export const RELATED_PRODUCT_COUNT = 4;
export const HOME_SECTION_PRODUCT_COUNT = 8;

/**
 * The five home sections (docs/rules.md#pages-and-routes), each showing random products of one type:
 * the home page draws them, and the server writes their products into the page (page-loaders.ts). The
 * spec loads type 2008 (dholaks) for the TABLAS section; shoppers reading TABLAS expect tablas, so
 * the section shows type 2035.
 */
export const homeSections = [
  { title: 'FEATURED INSTRUMENTS', typeId: 1003, viewMore: '2017,2009,1003' },
  { title: 'PROFESSIONAL QUALITY DHOLS', typeId: 2010, viewMore: '2010' },
  { title: 'TABLAS', typeId: 2035, viewMore: '2035' },
  { title: 'HARMONIUM', typeId: 2017, viewMore: '2017' },
  { title: 'STRING INSTRUMENTS', typeId: 1001, viewMore: '1001' },
] as const;

/**
 * Search orders (docs/rules.md#catalogue-and-search): relevance (with a keyword, best match first; without one, the
 * catalogue's own order), price low to high and high to low (a product's lowest price), newest.
 */
export const searchSorts = ['relevance', 'price-asc', 'price-desc', 'newest'] as const;
export type SearchSort = (typeof searchSorts)[number];

/** A size as the card price reads it (contract/catalog.ts ProductStock). */
interface PricedSize {
  id: number;
  stock: number;
  price: number;
  priceWithoutDiscount: number;
  priceReduction: number;
}

/**
 * The price a product card shows (docs/rules.md#prices-and-money; issue 32, item 3): the cheapest
 * size in stock (the first of equals, in the sizes' order), marked `from` when the sizes in stock
 * differ in price, with the highest reduction among them for the card's badge. A card never shows a
 * sold-out size's price while another size can be bought; with every size sold out it shows the
 * cheapest size (and says Sold out). Null for a product without sizes.
 */
export function cardPriceOf(sizes: readonly PricedSize[]): {
  productStockId: number;
  price: number;
  priceWithoutDiscount: number;
  from: boolean;
  highestReduction: number;
} | null {
  const inStock = sizes.filter((size) => size.stock > 0);
  const onOffer = inStock.length > 0 ? inStock : sizes;
  let cheapest: PricedSize | undefined;
  for (const size of onOffer) if (cheapest === undefined || size.price < cheapest.price) cheapest = size;
  if (!cheapest) return null;
  const lowest = cheapest.price;
  return {
    productStockId: cheapest.id,
    price: cheapest.price,
    priceWithoutDiscount: cheapest.priceWithoutDiscount,
    from: onOffer.some((size) => size.price !== lowest),
    highestReduction: Math.max(0, ...onOffer.map((size) => size.priceReduction)),
  };
}

/** A product's status (docs/back-office.md#catalogue): shoppers see only published products. */
export const productStatuses = ['draft', 'published', 'archived'] as const;
export type ProductStatus = (typeof productStatuses)[number];

/**
 * A URL key: lower-case letters, digits and single dashes, with a letter somewhere (a key of digits
 * only would be read as a product id: /products/123).
 */
export const URL_KEY_PATTERN = /^(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const URL_KEY_MAX = 200;

/** "Brass Dhol (38\")" -> "brass-dhol-38": a title as a URL key. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
