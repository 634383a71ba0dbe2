import { z } from 'zod';
import { MAX_ID } from '../basket-rules.ts';
import { productStatuses, TOP_LEVEL_PARENT_ID, URL_KEY_MAX, URL_KEY_PATTERN } from '../catalog-rules.ts';
import { requiredText } from '../fields.ts';
import { auditEntrySchema } from './audit.ts';
import { parcelFactsSchema, parcelFactsViewSchema } from './shipping.ts';

/**
 * The catalogue in the back office (docs/back-office.md#catalogue): products with their sizes,
 * product types and brands. Money is integer pence; a size's price is its price without discount
 * less its percent reduction, worked out by the server (discountedPrice in contract/money.ts).
 */

const id = z.coerce.number().int().min(1).max(MAX_ID);
export const idParamsSchema = z.object({ id });

/** Most sizes or styles one product may have. */
export const MAX_SIZES = 50;
/** £100,000: far above any instrument, low enough to catch a price typed in pence as pounds twice over. */
export const MAX_PRICE = 10_000_000;
export const MAX_NEW_STOCK = 100_000;

// ---- Products ---------------------------------------------------------------------------------

export const productSorts = ['newest', 'title'] as const;

export const productListQuerySchema = z.object({
  /** Words of the title, in any case. */
  q: z.string().trim().max(100).optional(),
  /** A type; its child types' products are included. */
  typeId: id.optional(),
  brandId: id.optional(),
  status: z.enum(productStatuses).optional(),
  sort: z.enum(productSorts).default('newest'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type ProductListQuery = z.input<typeof productListQuerySchema>;
export type ProductListFilter = z.output<typeof productListQuerySchema>;

export const productSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  urlKey: z.string(),
  status: z.enum(productStatuses),
  productTypeId: z.number().int(),
  productTypeName: z.string(),
  brandId: z.number().int(),
  brandName: z.string(),
  sizes: z.number().int(),
  /** Units in stock over all its sizes. */
  stock: z.number().int(),
  /** The lowest price of its sizes, or null without sizes. */
  lowestPrice: z.number().int().nullable(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

export const productListSchema = z.object({
  products: z.array(productSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ProductList = z.infer<typeof productListSchema>;

/**
 * A size or style as staff send it. A new one (no id) brings its opening stock; an existing one's
 * stock is never written here: stock changes are adjustments, each a delta with a reason
 * (docs/back-office.md#stock), so a sale made while the form was open is never overwritten.
 */
export const sizeInputSchema = z
  .object({
    id: id.optional(),
    sizeName: requiredText('Please name the size or style', 100),
    priceWithoutDiscount: z
      .number({ error: 'Please enter the price' })
      .int('Please enter the price in whole pence')
      .min(0, 'The price cannot be below £0')
      .max(MAX_PRICE, 'The price must be at most £100,000'),
    priceReduction: z
      .number({ error: 'Please enter the reduction, 0 for none' })
      .int('Please enter a whole percent')
      .min(0, 'The reduction must be 0 to 100 percent')
      .max(100, 'The reduction must be 0 to 100 percent')
      .default(0),
    stock: z
      .number({ error: 'Please enter the stock' })
      .int('Please enter a whole number of units')
      .min(0, 'The stock cannot be below 0')
      .max(MAX_NEW_STOCK, `The stock must be at most ${MAX_NEW_STOCK}`)
      .optional(),
    /** Its weight and box, for labels (docs/back-office.md#shipping-labels). Left out: unchanged (none for a new one). */
    parcel: parcelFactsSchema.optional(),
  })
  .superRefine((size, ctx) => {
    if (size.id === undefined && size.stock === undefined) {
      ctx.addIssue({ code: 'custom', path: ['stock'], message: 'Please enter the stock of a new size' });
    }
    if (size.id !== undefined && size.stock !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['stock'],
        message: "An existing size's stock changes through a stock adjustment, not here",
      });
    }
  });
export type SizeInput = z.input<typeof sizeInputSchema>;

export const urlKeyField = z
  .string({ error: 'Please enter a URL key' })
  .trim()
  .min(1, 'Please enter a URL key')
  .max(URL_KEY_MAX, `at most ${URL_KEY_MAX} characters`)
  .regex(URL_KEY_PATTERN, 'Use lower-case letters, digits and single dashes, with at least one letter');

/** The text of a product, as the product form edits it. */
export const productFieldsSchema = z.object({
  title: requiredText('Please enter a title', 200),
  urlKey: urlKeyField,
  productTypeId: z.number({ error: 'Please choose a type' }).int().min(1, 'Please choose a type').max(MAX_ID),
  brandId: z.number({ error: 'Please choose a brand' }).int().min(1, 'Please choose a brand').max(MAX_ID),
  description: requiredText('Please enter a description', 10_000),
  /** Blank: the title is used. */
  seoTitle: z.string().trim().max(200, 'at most 200 characters').default(''),
  seoKeywords: z.string().trim().max(500, 'at most 500 characters').default(''),
  seoDescription: z.string().trim().max(500, 'at most 500 characters').default(''),
  /** Words shoppers may search by besides the title (the type and brand names are added by the shop). */
  searchTags: z.string().trim().max(300, 'at most 300 characters').default(''),
  status: z.enum(productStatuses, { error: 'Please choose draft, published or archived' }),
  /** Made for the order: it cannot be returned for a change of mind (docs/rules.md#returns). Absent: unchanged. */
  madeToOrder: z.boolean().optional(),
});

function sizesField() {
  return z
    .array(sizeInputSchema)
    .min(1, 'A product needs at least one size or style')
    .max(MAX_SIZES, `at most ${MAX_SIZES} sizes`)
    .superRefine((sizes, ctx) => {
      const seen = new Set<string>();
      sizes.forEach((size, index) => {
        const name = size.sizeName.trim().toLowerCase();
        if (seen.has(name))
          ctx.addIssue({ code: 'custom', path: [index, 'sizeName'], message: 'Each size needs a name of its own' });
        seen.add(name);
      });
    });
}

/** POST /api/admin/products and PUT /api/admin/products/{id}: the whole product. */
export const productInputSchema = productFieldsSchema.extend({ sizes: sizesField() });
export type ProductInput = z.input<typeof productInputSchema>;
export type ProductInputParsed = z.output<typeof productInputSchema>;

export const productStatusChangeSchema = z.object({
  status: z.enum(productStatuses, { error: 'Please choose draft, published or archived' }),
});

export const sizeViewSchema = z.object({
  id: z.number().int(),
  sizeName: z.string(),
  priceWithoutDiscount: z.number().int(),
  priceReduction: z.number().int(),
  price: z.number().int(),
  stock: z.number().int(),
  parcel: parcelFactsViewSchema,
  /** Ordered at least once: it stays on the product (order lines and refunds point at it). */
  ordered: z.boolean(),
});

export const productDetailSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  urlKey: z.string(),
  productTypeId: z.number().int(),
  brandId: z.number().int(),
  description: z.string(),
  seoTitle: z.string(),
  seoKeywords: z.string(),
  seoDescription: z.string(),
  searchTags: z.string(),
  status: z.enum(productStatuses),
  madeToOrder: z.boolean(),
  productTypeName: z.string(),
  brandName: z.string(),
  sizes: z.array(sizeViewSchema),
  images: z.array(z.object({ imageUrl: z.string() })),
  /** Keys the product answered to before, each a 301 to its current page. */
  oldUrlKeys: z.array(z.string()),
  audit: z.array(auditEntrySchema),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

// ---- Types and brands -------------------------------------------------------------------------

export const productTypeViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int(),
  sortOrder: z.number().int(),
  /** Products of this type itself (any status). */
  products: z.number().int(),
});
export type ProductTypeView = z.infer<typeof productTypeViewSchema>;
export const productTypeViewListSchema = z.array(productTypeViewSchema);

export const productTypeInputSchema = z.object({
  // The products CSV writes a type as its place in the tree ("Drums > Dholaks"): a name with a
  // separator in it would read as another type's place.
  name: requiredText('Please enter a name', 100).refine(
    (name) => !/[>›]/.test(name),
    'A name may not contain > or ›, which mark a type’s place in the tree',
  ),
  /** -1 for a top-level type. */
  parentId: z
    .number({ error: 'Please choose where it goes' })
    .int()
    .min(TOP_LEVEL_PARENT_ID, 'Please choose where it goes')
    .max(MAX_ID)
    .refine((parentId) => parentId !== 0, 'Please choose where it goes'),
});
export type ProductTypeInput = z.input<typeof productTypeInputSchema>;

export const brandViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sortOrder: z.number().int(),
  products: z.number().int(),
});
export type BrandView = z.infer<typeof brandViewSchema>;
export const brandViewListSchema = z.array(brandViewSchema);

export const brandInputSchema = z.object({ name: requiredText('Please enter a name', 100) });
export type BrandInput = z.input<typeof brandInputSchema>;

/** One place up or down among its siblings (types) or in the list (brands). */
export const reorderSchema = z.object({
  direction: z.enum(['up', 'down'], { error: 'Please say up or down' }),
});
export type Reorder = z.input<typeof reorderSchema>;
