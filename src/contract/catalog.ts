import { z } from 'zod';
import { photoFormats } from './photos.ts';
import {
  DEFAULT_PAGE_SIZE,
  MAX_FILTER_IDS,
  MAX_KEYWORD_LENGTH,
  MAX_PAGE_SIZE,
  MAX_RANDOM_COUNT,
  searchSorts,
} from './catalog-rules.ts';

/**
 * Catalogue payloads (docs/rules.md#catalogue-and-search). Money is integer pence.
 * Every list of products carries whole products with their stocks, since a product card needs them.
 */

/** A positive database id given in a path or query string. */
export const idParam = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .max(2_147_483_647, 'is too large');

export interface ProductType {
  id: number;
  name: string;
  parentId: number;
  childTypes: ProductType[];
}
// Named (an OpenAPI component): a tree refers to itself, which the API document can only say by reference.
export const productTypeSchema: z.ZodType<ProductType> = z
  .object({
    id: z.number().int(),
    name: z.string(),
    parentId: z.number().int(),
    get childTypes() {
      return z.array(productTypeSchema);
    },
  })
  .meta({ id: 'ProductType' });
export const productTypeTreeSchema = z.array(productTypeSchema);

export const brandSchema = z.object({ id: z.number().int(), name: z.string() });
export type Brand = z.infer<typeof brandSchema>;
export const brandListSchema = z.array(brandSchema);

export const countrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  isoCode: z.string().length(2),
});
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);

export const titleSchema = z.object({ id: z.number().int(), name: z.string() });
export type Title = z.infer<typeof titleSchema>;
export const titleListSchema = z.array(titleSchema);

export const productStockSchema = z.object({
  id: z.number().int(),
  /** The same as id; the spec names it both ways. */
  productStockId: z.number().int(),
  productId: z.number().int(),
  productSizeName: z.string(),
  productTitle: z.string(),
  /** Units available to buy now. */
  stock: z.number().int().min(0),
  price: z.number().int().min(0),
  /** Percent, 0 when not discounted. */
  priceReduction: z.number().int().min(0).max(100),
  priceWithoutDiscount: z.number().int().min(0),
});
export type ProductStock = z.infer<typeof productStockSchema>;

/**
 * An uploaded photo's sources (src/contract/photos.ts builds its srcset). Products without uploads
 * show the shop's drawings, which have none.
 */
export const photoSourcesSchema = z.object({
  key: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  widths: z.array(z.number().int()),
  formats: z.array(z.enum(photoFormats)),
});

export const productImageSchema = z.object({ imageUrl: z.string(), photo: photoSourcesSchema.optional() });

/** What a product card shows as the price (cardPriceOf in catalog-rules.ts). */
export const cardPriceSchema = z.object({
  /** The size whose price it is. */
  productStockId: z.number().int(),
  price: z.number().int().min(0),
  priceWithoutDiscount: z.number().int().min(0),
  /** The sizes on offer differ in price: the card reads "from £…". */
  from: z.boolean(),
  /** Percent: the card's badge, the highest reduction among the sizes on offer. */
  highestReduction: z.number().int().min(0).max(100),
});
export type CardPrice = z.infer<typeof cardPriceSchema>;

export const productSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  urlKey: z.string(),
  brandId: z.number().int(),
  brandName: z.string(),
  productTypeId: z.number().int(),
  productTypeName: z.string(),
  description: z.string(),
  defaultImageUrl: z.string(),
  images: z.array(productImageSchema),
  seoTitle: z.string(),
  seoKeywords: z.string(),
  seoDescription: z.string(),
  stocks: z.array(productStockSchema),
  /** Chosen by the server from the sizes in stock; null when the product has no sizes. */
  cardPrice: cardPriceSchema.nullable(),
  /** Made for the order: not returnable for a change of mind (docs/rules.md#returns). */
  madeToOrder: z.boolean().optional(),
});
export type Product = z.infer<typeof productSchema>;
export const productListSchema = z.array(productSchema);

/** A basket line's product details, looked up by stock id (GET /api/product-stock). */
export const stockDetailSchema = productStockSchema.extend({
  urlKey: z.string(),
  imageUrl: z.string(),
});
export type StockDetail = z.infer<typeof stockDetailSchema>;
export const stockDetailListSchema = z.array(stockDetailSchema);

export const offerSchema = z.object({
  productId: z.number().int(),
  productStockId: z.number().int(),
  description: z.string(),
  priceReduction: z.number().int(),
  price: z.number().int(),
  priceWithoutDiscount: z.number().int(),
});
export type Offer = z.infer<typeof offerSchema>;
export const offerListSchema = z.array(offerSchema);

const idList = z.array(z.number().int().min(1).max(2_147_483_647)).max(MAX_FILTER_IDS, `at most ${MAX_FILTER_IDS} ids`);

/** POST /api/search body. Unknown keys (the answer's own fields sent back) are ignored. */
export const searchRequestSchema = z.object({
  title: z.string().trim().max(MAX_KEYWORD_LENGTH, `at most ${MAX_KEYWORD_LENGTH} characters`).default(''),
  brandId: idList.default([]),
  typeId: idList.default([]),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  pageNumber: z.number().int().min(1).max(100_000).default(1),
  sort: z.enum(searchSorts, { error: `must be one of ${searchSorts.join(', ')}` }).default('relevance'),
});
export type SearchRequest = z.input<typeof searchRequestSchema>;
export type SearchQuery = z.output<typeof searchRequestSchema>;

const facetCountsSchema = z.array(z.object({ id: z.number().int(), count: z.number().int().min(0) }));

export const searchResponseSchema = z.object({
  title: z.string(),
  brandId: z.array(z.number().int()),
  typeId: z.array(z.number().int()),
  pageSize: z.number().int(),
  pageNumber: z.number().int(),
  sort: z.enum(searchSorts),
  totalResults: z.number().int(),
  isNextPage: z.boolean(),
  results: productListSchema,
  /**
   * How many products match the keyword and the other kind of filter, per type (a type counts its
   * descendants' products too) and per brand; those with none are left out (docs/rules.md#catalogue-and-search).
   * Missing for the few seconds after a start before the search index is built.
   */
  facets: z.object({ types: facetCountsSchema, brands: facetCountsSchema }).optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const productKeyParams = z.object({
  key: z.string().min(1).max(200),
});
export const randomByTypeParams = z.object({
  typeId: idParam,
  count: idParam.max(MAX_RANDOM_COUNT, `must be at most ${MAX_RANDOM_COUNT}`),
});
export const randomByBrandParams = z.object({
  brandId: idParam,
  count: idParam.max(MAX_RANDOM_COUNT, `must be at most ${MAX_RANDOM_COUNT}`),
});
export const relatedParams = z.object({
  key: z.string().min(1).max(200),
  count: idParam.max(MAX_RANDOM_COUNT, `must be at most ${MAX_RANDOM_COUNT}`),
});
export const productStockQuery = z.object({
  id: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(idParam).min(1, 'at least one id is required').max(100, 'at most 100 ids'),
  ),
});
export const offersParams = z.object({ productId: idParam });
