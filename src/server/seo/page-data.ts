import {
  brandListSchema,
  productListSchema,
  productSchema,
  productTypeTreeSchema,
  searchRequestSchema,
  searchResponseSchema,
  type Brand,
  type Product,
  type ProductType,
} from '../../contract/catalog.ts';
import {
  DEFAULT_PAGE_SIZE,
  HOME_SECTION_PRODUCT_COUNT,
  homeSections,
  RELATED_PRODUCT_COUNT,
} from '../../contract/catalog-rules.ts';
import { firstSearchPage, pageQueryKeys, type PageDataEntry } from '../../contract/page-data.ts';
import { readSearchAddress } from '../../contract/search-filters.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { NotFoundError } from '../errors.ts';

/**
 * The catalogue data a page draws first, written into its HTML so the app need not ask the API
 * for it after loading (docs/rules.md#pages-and-routes): the type tree and brands on every page
 * (menu, footer, filters), a search's first page of results on /search, the product on its page.
 * Each answer goes through the API's own response schema, so the page holds what the call would
 * have answered. Only the public catalogue: nothing here depends on who asks.
 */
export function createPageData(catalog: CatalogService) {
  async function layout(): Promise<{ types: ProductType[]; brands: Brand[]; entries: PageDataEntry[] }> {
    const [types, brands] = await Promise.all([catalog.productTypes(), catalog.brands()]);
    return {
      types,
      brands,
      entries: [
        { key: pageQueryKeys.productTypes(), data: productTypeTreeSchema.parse(types) },
        { key: pageQueryKeys.brands(), data: brandListSchema.parse(brands) },
      ],
    };
  }

  return {
    async layout(): Promise<PageDataEntry[]> {
      return (await layout()).entries;
    },

    async search(query: URLSearchParams): Promise<PageDataEntry[]> {
      const { types, brands, entries } = await layout();
      const { filters } = readSearchAddress(query, types, brands);
      const request = searchRequestSchema.parse({
        title: filters.keyword,
        typeId: filters.typeIds,
        brandId: filters.brandIds,
        pageSize: DEFAULT_PAGE_SIZE,
        pageNumber: 1,
        sort: filters.sort,
      });
      const found = searchResponseSchema.parse(await catalog.search(request));
      return [...entries, { key: pageQueryKeys.search(filters), data: firstSearchPage(found) }];
    },

    /**
     * The home page's sections: each one's random picks, as GET /api/products/random answers them
     * (a section whose type the catalogue lacks is left to the page, which shows it empty).
     */
    async home(): Promise<PageDataEntry[]> {
      const [{ entries }, ...sections] = await Promise.all([
        layout(),
        ...homeSections.map(async (section) => {
          try {
            const products = await catalog.randomByType(section.typeId, HOME_SECTION_PRODUCT_COUNT);
            return [{ key: pageQueryKeys.homeSection(section.typeId), data: productListSchema.parse(products) }];
          } catch (error) {
            if (error instanceof NotFoundError) return [];
            throw error;
          }
        }),
      ]);
      return [...entries, ...sections.flat()];
    },

    /** A product page: the product, and the related products drawn below it. */
    async product(urlKey: string, product: Product): Promise<PageDataEntry[]> {
      const [{ entries }, related] = await Promise.all([
        layout(),
        catalog.related(String(product.id), RELATED_PRODUCT_COUNT),
      ]);
      return [
        ...entries,
        { key: pageQueryKeys.product(urlKey), data: productSchema.parse(product) },
        { key: pageQueryKeys.relatedProducts(product.id), data: productListSchema.parse(related) },
      ];
    },
  };
}
