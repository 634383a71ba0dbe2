import { parse } from 'csv-parse/sync';
import {
  MAX_IMPORT_ROWS,
  productCsvColumns,
  productCsvHeader,
  productCsvRowSchema,
  type CsvRowError,
  type ProductCsvColumn,
  type ProductCsvRow,
} from '../../contract/admin/products-csv.ts';
import { penceToDecimal } from '../../contract/money.ts';
import { BadRequestError } from '../errors.ts';

/**
 * The products CSV's text (docs/back-office.md#csv-import-and-export): writing a row, and reading a
 * file into rows with an error for each bad cell. csv-parse reads the file (RFC 4180: quotes,
 * commas and line breaks inside cells, a byte-order mark); nothing here touches the database.
 */

// ---- Writing ----------------------------------------------------------------------------------

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab or carriage return first) gets an
 * apostrophe in front, as the orders CSV does (orders/orders-csv.ts). A cell that starts with an
 * apostrophe gets one more, so that reading the file back takes exactly one off and every value
 * comes back as it was.
 */
const formulaStart = /^[=+\-@\t\r']/;

function cell(value: string): string {
  const text = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function line(values: string[]): string {
  return `${values.map(cell).join(',')}\r\n`;
}

export const productCsvHeaderLine = line(productCsvHeader);

export interface ProductCsvSource {
  urlKey: string;
  title: string;
  status: string;
  typePath: string;
  brandName: string;
  description: string;
  seoTitle: string;
  seoKeywords: string;
  seoDescription: string;
  searchTags: string;
  /** Undefined for a product without sizes: its row leaves the size's columns blank. */
  size?: { sizeName: string; priceWithoutDiscount: number; priceReduction: number; stock: number };
}

export function productCsvLine(row: ProductCsvSource): string {
  return line([
    row.urlKey,
    row.title,
    row.status,
    row.typePath,
    row.brandName,
    row.description,
    row.seoTitle,
    row.seoKeywords,
    row.seoDescription,
    row.searchTags,
    row.size?.sizeName ?? '',
    row.size ? penceToDecimal(row.size.priceWithoutDiscount) : '',
    row.size ? String(row.size.priceReduction) : '',
    row.size ? String(row.size.stock) : '',
  ]);
}

// ---- Reading ----------------------------------------------------------------------------------

/** The product's columns and the size's: a row with every size column blank is the product alone. */
const sizeColumns = ['sizeName', 'price', 'reduction', 'stock'] as const satisfies readonly ProductCsvColumn[];
export const productColumns = (Object.keys(productCsvColumns) as ProductCsvColumn[]).filter(
  (key) => !(sizeColumns as readonly string[]).includes(key),
) as Array<Exclude<ProductCsvColumn, (typeof sizeColumns)[number]>>;

export type ProductOnlyRow = Omit<ProductCsvRow, (typeof sizeColumns)[number]>;

export interface ReadRow {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  product: ProductOnlyRow;
  /** The file's text of each product column, to tell whether a product's rows agree. */
  productText: Record<string, string>;
  size: Pick<ProductCsvRow, 'sizeName' | 'price' | 'reduction' | 'stock'> | undefined;
}

/** Undoes the export's formula guard: one leading apostrophe before a character it guards. */
function unguarded(value: string): string {
  return value.startsWith("'") && formulaStart.test(value.slice(1)) ? value.slice(1) : value;
}

function parseRecords(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  } catch (error) {
    const where = (error as { lines?: number }).lines;
    throw new BadRequestError(
      `The file is not CSV that can be read${where ? ` (near line ${where})` : ''}: ${(error as Error).message}`,
      'file',
    );
  }
}

/**
 * The file's rows, each checked on its own: a valid row is read into what it means, a bad cell is
 * an error naming its row and column. A file that cannot be read as the products CSV at all (not
 * CSV, a column missing or unknown, too many rows) is a 400 naming `file`.
 */
export function readProductCsv(text: string): { rows: ReadRow[]; errors: CsvRowError[]; rowCount: number } {
  const records = parseRecords(text);
  const header = records[0]?.map((name) => name.trim());
  if (!header || header.every((name) => name === '')) {
    throw new BadRequestError('The file is empty: it needs the header row and a row for each size', 'file');
  }
  const keyOf = new Map(Object.entries(productCsvColumns).map(([key, name]) => [name.toLowerCase(), key]));
  const unknown = header.filter((name) => name !== '' && !keyOf.has(name.toLowerCase()));
  const missing = productCsvHeader.filter((name) => !header.some((h) => h.toLowerCase() === name.toLowerCase()));
  const repeated = header.filter((name, index) => name !== '' && header.indexOf(name) !== index);
  if (unknown.length || missing.length || repeated.length) {
    const parts = [
      missing.length ? `missing ${missing.map((name) => `"${name}"`).join(', ')}` : '',
      unknown.length ? `unknown ${unknown.map((name) => `"${name}"`).join(', ')}` : '',
      repeated.length ? `repeated ${repeated.map((name) => `"${name}"`).join(', ')}` : '',
    ].filter(Boolean);
    throw new BadRequestError(
      `The header row must name these columns once each: ${productCsvHeader.join(', ')} (${parts.join('; ')})`,
      'file',
    );
  }
  const body = records.slice(1);
  const lastFilled = body.findLastIndex((record) => record.some((value) => value.trim() !== ''));
  const rowCount = lastFilled + 1;
  if (rowCount > MAX_IMPORT_ROWS) {
    throw new BadRequestError(
      `The file has ${rowCount} rows; an import takes at most ${MAX_IMPORT_ROWS}. Split it in two.`,
      'file',
    );
  }

  const rows: ReadRow[] = [];
  const errors: CsvRowError[] = [];
  body.slice(0, rowCount).forEach((record, index) => {
    const row = index + 2;
    if (record.every((value) => value.trim() === '')) return;
    if (record.length > header.length && record.slice(header.length).some((value) => value.trim() !== '')) {
      errors.push({
        row,
        column: null,
        message: `This row has ${record.length} cells; the header has ${header.length}`,
      });
      return;
    }
    const cells: Record<string, string> = {};
    header.forEach((name, column) => {
      const key = keyOf.get(name.toLowerCase());
      if (key) cells[key] = unguarded(record[column] ?? '');
    });
    const productOnly = sizeColumns.every((key) => (cells[key] ?? '').trim() === '');
    const schema = productOnly
      ? productCsvRowSchema.omit({ sizeName: true, price: true, reduction: true, stock: true })
      : productCsvRowSchema;
    const parsed = schema.safeParse(cells);
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (seen.has(key)) continue;
        seen.add(key);
        errors.push({
          row,
          column: productCsvColumns[key as ProductCsvColumn] ?? null,
          message: issue.message,
        });
      }
      return;
    }
    const data = parsed.data as ProductCsvRow;
    rows.push({
      row,
      product: Object.fromEntries(productColumns.map((key) => [key, data[key]])) as ProductOnlyRow,
      productText: Object.fromEntries(productColumns.map((key) => [key, String(data[key])])),
      size: productOnly
        ? undefined
        : { sizeName: data.sizeName, price: data.price, reduction: data.reduction, stock: data.stock },
    });
  });
  return { rows, errors, rowCount };
}
