import {
  brandListSchema,
  productListSchema,
  productSchema,
  productTypeTreeSchema,
  searchRequestSchema,
  searchResponseSchema,
  type Product,
} from '../../contract/catalog.ts';
import { HOME_SECTION_PRODUCT_COUNT, RELATED_PRODUCT_COUNT } from '../../contract/catalog-rules.ts';
import type { CatalogReader } from '../../contract/page-loaders.ts';
import { searchRequestFor } from '../../contract/search-filters.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { NotFoundError } from '../errors.ts';

/**
 * The catalogue as the pages' loaders (src/contract/page-loaders.ts) read it on the server, for the
 * data written into a page's HTML. Each answer goes through the API's own response schema, so the
 * page holds what the call would have answered. Only the public catalogue: nothing here depends on
 * who asks.
 */
export function catalogReader(catalog: CatalogService): CatalogReader {
  async function product(urlKey: string): Promise<Product> {
    let found = await catalog.lookUp(urlKey);
    // An old key names the product under its new one, as the browser follows GET /api/products' 301.
    if ('movedTo' in found) found = await catalog.lookUp(found.movedTo);
    if ('movedTo' in found) throw new NotFoundError(`product ${urlKey} has moved twice at once`);
    return productSchema.parse(found.product);
  }

  return {
    productTypes: async () => productTypeTreeSchema.parse(await catalog.productTypes()),
    brands: async () => brandListSchema.parse(await catalog.brands()),
    search: async (filters) =>
      searchResponseSchema.parse(await catalog.search(searchRequestSchema.parse(searchRequestFor(filters, 1)))),
    async randomByType(typeId) {
      try {
        return productListSchema.parse(await catalog.randomByType(typeId, HOME_SECTION_PRODUCT_COUNT));
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    },
    product,
    related: async (productId) =>
      productListSchema.parse(await catalog.related(String(productId), RELATED_PRODUCT_COUNT)),
  };
}
