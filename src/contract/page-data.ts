import { HOME_SECTION_PRODUCT_COUNT } from './catalog-rules.ts';
import type { SearchFilters } from './search-filters.ts';

/**
 * Data the server writes into a page's HTML so the app draws the page without first asking the API
 * for it (docs/rules.md#pages-and-routes): each entry is a query's key and the answer its API call
 * would give. Both sides build the keys here, so an entry lands exactly where the page will look.
 */
export const PAGE_DATA_ELEMENT_ID = 'shop-page-data';

/**
 * The id of the JSON script element the server writes the shop's identity into (shop.ts's
 * ShopIdentity). Kept here, in a module without schemas, and not beside the identity's schema:
 * every page's first load reads it, and a constant taken from a module of schemas brings the
 * schema library with it (test/e2e/first-load.spec.ts).
 */
export const SHOP_CONFIG_ELEMENT_ID = 'shop-config';

export interface PageDataEntry {
  key: readonly unknown[];
  data: unknown;
}

export const pageQueryKeys = {
  productTypes: () => ['product-types'] as const,
  brands: () => ['brands'] as const,
  product: (urlKey: string) => ['product', urlKey] as const,
  relatedProducts: (productId: number | undefined) => ['related-products', productId] as const,
  homeSection: (typeId: number) => ['random-products', typeId, HOME_SECTION_PRODUCT_COUNT] as const,
  search: (filters: SearchFilters) =>
    ['search', filters.keyword, filters.typeIds, filters.brandIds, filters.sort] as const,
};

/** A search's first page as the search page's infinite query keeps it. */
export function firstSearchPage<T>(page: T): { pages: T[]; pageParams: number[] } {
  return { pages: [page], pageParams: [1] };
}

/**
 * A page drawn on the server (docs/decisions/0021-server-rendering.md): the HTML inside #root, and
 * the tags React put in the document's head for it (the page's own title, description and canonical
 * link, page-meta.tsx), for the server to take what its own head lacks.
 */
export interface RenderedPage {
  body: string;
  head: string;
}
