import type { QueryClient } from '@tanstack/react-query';
import type { CatalogReader } from '../../contract/page-loaders.ts';
import { randomProductsQueryOptions } from '../features/home/api/get-random-products.ts';
import { productQueryOptions, relatedProductsQueryOptions } from '../features/product/api/get-product.ts';
import { productSearchQueryOptions } from '../features/search/api/search-products.ts';
import { ApiRequestError } from '../lib/api.ts';
import { brandsQueryOptions, productTypesQueryOptions } from '../lib/catalog-api.ts';

/**
 * The catalogue as the pages' loaders (src/contract/page-loaders.ts) read it in the browser: the
 * API, asked through the query cache with the very options the pages' hooks use. What the cache
 * holds already is not asked for again, and a page that mounts while its data is on the way waits
 * for the same answer instead of asking a second time.
 */
export function queryCacheReader(client: QueryClient): CatalogReader {
  return {
    productTypes: () => client.ensureQueryData(productTypesQueryOptions()),
    brands: () => client.ensureQueryData(brandsQueryOptions()),
    search: async (filters) => {
      const { pages } = await client.ensureInfiniteQueryData(productSearchQueryOptions(filters));
      const [first] = pages;
      if (!first) throw new Error('a search kept without its first page');
      return first;
    },
    randomByType: (typeId) =>
      client.ensureQueryData(randomProductsQueryOptions(typeId)).catch((error: unknown) => {
        // The catalogue lacks the type: the home page shows the section empty.
        if (error instanceof ApiRequestError && error.status === 404) return undefined;
        throw error;
      }),
    product: (urlKey) => client.ensureQueryData(productQueryOptions(urlKey)),
    related: (productId) => client.ensureQueryData(relatedProductsQueryOptions(productId)),
  };
}
