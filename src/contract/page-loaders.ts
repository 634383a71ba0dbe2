import type { Brand, Product, ProductType, SearchResponse } from './catalog.ts';
import { homeSections } from './catalog-rules.ts';
import { firstSearchPage, pageQueryKeys, type PageDataEntry } from './page-data.ts';
import { pageRoutes, type PageName, type PublicPageName } from './routes.ts';
import { readSearchAddress, type SearchFilters } from './search-filters.ts';

/**
 * What each public page draws first, loaded once for the server and the browser alike
 * (docs/rules.md#pages-and-routes): the server writes the entries into the page's HTML
 * (src/server/seo/page-head.ts), the browser fills its query cache with them when it goes to the
 * page (src/web/app/router.tsx), and the pages' hooks read the same keys. The shopper's own pages
 * have none: what they draw depends on the shopper, and no cache may keep it.
 */

/**
 * The catalogue as a loader reads it. The server reads its catalogue service, each answer parsed
 * through the API's response schema (src/server/seo/catalog-reader.ts); the browser asks the API
 * through its query cache, with the options its pages' hooks use (src/web/app/catalog-reader.ts).
 */
export interface CatalogReader {
  productTypes(): Promise<ProductType[]>;
  brands(): Promise<Brand[]>;
  /** A search's first page of results. */
  search(filters: SearchFilters): Promise<SearchResponse>;
  /** A home section's random picks (HOME_SECTION_PRODUCT_COUNT); undefined when the catalogue lacks the type. */
  randomByType(typeId: number): Promise<Product[] | undefined>;
  /** The product at a URL key (under its new key when the key has changed). */
  product(urlKey: string): Promise<Product>;
  /** The products shown below a product (RELATED_PRODUCT_COUNT). */
  related(productId: number): Promise<Product[]>;
}

/** Where a page is: its route's parameters, decoded, and its address's query. */
export interface PageLocation {
  params: Readonly<Record<string, string | undefined>>;
  query: URLSearchParams;
}

/** A page's data as entries, each a query's key and what its API call answers. */
export type PageLoader = (reader: CatalogReader, at: PageLocation) => Promise<PageDataEntry[]>;

/** The type tree and brands the menu, footer and search filters draw, on every page. */
async function layoutData(reader: CatalogReader) {
  const [types, brands] = await Promise.all([reader.productTypes(), reader.brands()]);
  return {
    types,
    brands,
    entries: [
      { key: pageQueryKeys.productTypes(), data: types },
      { key: pageQueryKeys.brands(), data: brands },
    ] satisfies PageDataEntry[],
  };
}

/** The layout's data alone: the data of a page that has none of its own (and of the 404 page). */
export const loadLayoutData: PageLoader = async (reader) => (await layoutData(reader)).entries;

/** The search page: a search's first page of results, for the filters its address holds as the page reads them. */
const loadSearchPage: PageLoader = async (reader, at) => {
  const { types, brands, entries } = await layoutData(reader);
  const { filters } = readSearchAddress(at.query, types, brands);
  const found = await reader.search(filters);
  return [...entries, { key: pageQueryKeys.search(filters), data: firstSearchPage(found) }];
};

/** The home page: each section's random picks (a section whose type the catalogue lacks is left to the page, which shows it empty). */
const loadHomePage: PageLoader = async (reader) => {
  const [{ entries }, ...sections] = await Promise.all([
    layoutData(reader),
    ...homeSections.map(async (section): Promise<PageDataEntry[]> => {
      const products = await reader.randomByType(section.typeId);
      return products === undefined ? [] : [{ key: pageQueryKeys.homeSection(section.typeId), data: products }];
    }),
  ]);
  return [...entries, ...sections.flat()];
};

/** A product page: the product at its URL key, and the related products drawn below it. */
const loadProductPage: PageLoader = async (reader, at) => {
  const urlKey = at.params.key ?? '';
  const [{ entries }, product] = await Promise.all([layoutData(reader), reader.product(urlKey)]);
  const related = await reader.related(product.id);
  return [
    ...entries,
    { key: pageQueryKeys.product(urlKey), data: product },
    { key: pageQueryKeys.relatedProducts(product.id), data: related },
  ];
};

/** Every public page's loader: the type makes a public page without one (or a shopper's page with one) an error. */
export const pageLoaders: { readonly [Page in PublicPageName]: PageLoader } = {
  home: loadHomePage,
  search: loadSearchPage,
  product: loadProductPage,
  about: loadLayoutData,
  contact: loadLayoutData,
  terms: loadLayoutData,
  returns: loadLayoutData,
};

const publicPages = new Set<PageName>(
  pageRoutes.filter((route) => route.access === 'public').map((route) => route.page),
);

export function isPublicPage(page: PageName): page is PublicPageName {
  return publicPages.has(page);
}

/** What the server writes into a page: its own loader's entries, or the layout's for a shopper's page or no page. */
export function pageDataLoaderOf(page: PageName | undefined): PageLoader {
  return page !== undefined && isPublicPage(page) ? pageLoaders[page] : loadLayoutData;
}
