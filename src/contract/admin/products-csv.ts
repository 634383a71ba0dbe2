import { z } from 'zod';
import { productStatuses } from '../catalog-rules.ts';
import { poundsToPence } from '../money.ts';
import { MAX_NEW_STOCK, MAX_PRICE, productFieldsSchema, sizeInputSchema, urlKeyField } from './catalogue.ts';

/**
 * Products as CSV in the back office (docs/back-office.md#csv-import-and-export): one row per size
 * or style, the product's own columns repeated on each of its rows. Prices are in pounds with two
 * decimals (12.50), the reduction a whole percent, as the product form has them. Import is a
 * preview, then the same file applied in one transaction (all rows or none).
 */

/** The columns in the order the export writes them; an import must have each of them once, in any order. */
export const productCsvColumns = {
  urlKey: 'URL key',
  title: 'Title',
  status: 'Status',
  type: 'Type',
  brand: 'Brand',
  description: 'Description',
  seoTitle: 'SEO title',
  seoKeywords: 'SEO keywords',
  seoDescription: 'SEO description',
  searchTags: 'Search tags',
  sizeName: 'Size or style',
  price: 'Price (GBP)',
  reduction: 'Reduction (%)',
  stock: 'Stock',
  // A size's parcel facts (docs/back-office.md#shipping-labels): optional in an import, so a file
  // made before them still imports, and leaves them as they are.
  weight: 'Weight (g)',
  packaging: 'Packaging',
  length: 'Length (mm)',
  width: 'Width (mm)',
  height: 'Height (mm)',
} as const;
export type ProductCsvColumn = keyof typeof productCsvColumns;
/** The export's header, every column. */
export const productCsvHeader: string[] = Object.values(productCsvColumns);
/** The parcel columns: an import has all five or none. */
export const parcelCsvColumns = [
  'weight',
  'packaging',
  'length',
  'width',
  'height',
] as const satisfies readonly ProductCsvColumn[];
/** The columns every import must have. */
export const requiredCsvHeader: string[] = (Object.keys(productCsvColumns) as ProductCsvColumn[])
  .filter((key) => !(parcelCsvColumns as readonly string[]).includes(key))
  .map((key) => productCsvColumns[key]);

/** A type is written as its place in the tree, parent first: "Percussion > Dholaks". */
export const TYPE_PATH_SEPARATOR = ' > ';

/** The most rows one import takes (the header not counted), and the largest file. */
export const MAX_IMPORT_ROWS = 20_000;
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/**
 * Bounds on what reading one file costs (docs/back-office.md#csv-import-and-export): the file has
 * 19 columns (a spreadsheet may add a few blank ones), and the longest cell the product form takes
 * is a description of 10,000 characters. Blank rows after the last product are ignored, up to
 * MAX_IMPORT_ROWS rows in all.
 */
export const MAX_IMPORT_COLUMNS = 50;
export const MAX_CELL_CHARS = 20_000;
/** How many of a preview's changes and errors are listed (all are counted). */
export const MAX_LISTED = 500;

const wholeNumber = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, message)
    .transform((text) => Number(text));

/** A whole number, or null for a blank cell; undefined when the file has no such column. */
const wholeOrNone = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{0,9}$/, message)
    .transform((text) => (text === '' ? null : Number(text)))
    .optional();

/**
 * One row of the file as text, to what it means. The product's columns are checked as the product
 * form checks them (the same fields); a blank stock is "leave the stock as it is".
 */
export const productCsvRowSchema = z.object({
  urlKey: urlKeyField,
  title: productFieldsSchema.shape.title,
  status: z.enum(productStatuses, { error: 'Write draft, published or archived' }),
  type: z.string().trim().min(1, 'Please name the type'),
  brand: z.string().trim().min(1, 'Please name the brand'),
  description: productFieldsSchema.shape.description,
  seoTitle: productFieldsSchema.shape.seoTitle,
  seoKeywords: productFieldsSchema.shape.seoKeywords,
  seoDescription: productFieldsSchema.shape.seoDescription,
  searchTags: productFieldsSchema.shape.searchTags,
  sizeName: sizeInputSchema.shape.sizeName,
  price: z
    .string()
    .transform((text, ctx) => {
      const pence = poundsToPence(text);
      if (pence === undefined) {
        ctx.addIssue({ code: 'custom', message: 'Write the price in pounds, e.g. 12.50' });
        return z.NEVER;
      }
      return pence;
    })
    .pipe(z.number().max(MAX_PRICE, 'The price must be at most £100,000')),
  reduction: z
    .string()
    .trim()
    .transform((text) => text.replace(/\s*%$/, '') || '0')
    .pipe(wholeNumber('Write the reduction as a whole percent, 0 for none'))
    .pipe(z.number().max(100, 'The reduction must be 0 to 100 percent')),
  stock: z
    .string()
    .trim()
    .transform((text) => (text === '' ? undefined : text))
    .pipe(
      wholeNumber('Write the stock as a whole number of units, or leave it blank to keep it as it is')
        .pipe(z.number().max(MAX_NEW_STOCK, `The stock must be at most ${MAX_NEW_STOCK}`))
        .optional(),
    ),
  // Blank is none; the limits are the product form's (parcelFactsSchema), checked with the packaging.
  weight: wholeOrNone('Write the weight in whole grams, or leave it blank'),
  packaging: z.string().trim().max(100, 'At most 100 characters').optional(),
  length: wholeOrNone('Write the length in whole millimetres, or leave it blank'),
  width: wholeOrNone('Write the width in whole millimetres, or leave it blank'),
  height: wholeOrNone('Write the height in whole millimetres, or leave it blank'),
});
export type ProductCsvRow = z.output<typeof productCsvRowSchema>;

/** A problem with one cell (or, column null, with the whole row). Rows are counted as a spreadsheet shows them: the header is row 1. */
export const csvRowErrorSchema = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type CsvRowError = z.infer<typeof csvRowErrorSchema>;

export const productImportChangeSchema = z.object({
  /** The product's first row in the file. */
  row: z.number().int(),
  urlKey: z.string(),
  title: z.string(),
  action: z.enum(['create', 'update']),
  /** What changes, in the file's column names ("Price (GBP) of Large: 12.00 to 10.00"). */
  changes: z.array(z.string()),
});
export type ProductImportChange = z.infer<typeof productImportChangeSchema>;

/** POST /api/admin/products/import/preview, and POST /api/admin/products/import once applied. */
export const productImportSummarySchema = z.object({
  /** Rows read, the header not counted. */
  rows: z.number().int(),
  productsCreated: z.number().int(),
  productsUpdated: z.number().int(),
  productsUnchanged: z.number().int(),
  sizesCreated: z.number().int(),
  sizesUpdated: z.number().int(),
  /** Sizes whose stock the file sets to a new level (each a "correction" adjustment). */
  stockAdjustments: z.number().int(),
  /** The first MAX_LISTED products that change. */
  changes: z.array(productImportChangeSchema),
  /** Every error counted; the first MAX_LISTED listed. Apply is refused while there is one. */
  errorCount: z.number().int(),
  errors: z.array(csvRowErrorSchema),
  applied: z.boolean(),
});
export type ProductImportSummary = z.infer<typeof productImportSummarySchema>;

/** The import routes' body: the file itself, as text/csv (UTF-8, a byte-order mark allowed). */
export const productCsvBodySchema = z.string({ error: 'Send the file as text/csv' });
