import { parse } from 'csv-parse/sync';
import {
  MAX_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
  parcelCsvColumns,
  productCsvColumns,
  productCsvHeader,
  productCsvRowSchema,
  requiredCsvHeader,
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
  size?: {
    sizeName: string;
    priceWithoutDiscount: number;
    priceReduction: number;
    stock: number;
    weightGrams: number | null;
    /** The packaging preset's name, or '' for its own box. */
    packaging: string;
    lengthMm: number | null;
    widthMm: number | null;
    heightMm: number | null;
  };
}

const numberOrBlank = (value: number | null | undefined) => (value == null ? '' : String(value));

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
    numberOrBlank(row.size?.weightGrams),
    row.size?.packaging ?? '',
    numberOrBlank(row.size?.lengthMm),
    numberOrBlank(row.size?.widthMm),
    numberOrBlank(row.size?.heightMm),
  ]);
}

// ---- Reading ----------------------------------------------------------------------------------

/** The product's columns and the size's: a row with every size column blank is the product alone. */
const sizeColumns = ['sizeName', 'price', 'reduction', 'stock'] as const satisfies readonly ProductCsvColumn[];
type SizeOrParcelColumn = (typeof sizeColumns)[number] | (typeof parcelCsvColumns)[number];
export const productColumns = (Object.keys(productCsvColumns) as ProductCsvColumn[]).filter(
  (key) => !(sizeColumns as readonly string[]).includes(key) && !(parcelCsvColumns as readonly string[]).includes(key),
) as Array<Exclude<ProductCsvColumn, SizeOrParcelColumn>>;

export type ProductOnlyRow = Omit<ProductCsvRow, SizeOrParcelColumn>;

/** A size's parcel facts as the file gives them: the packaging by name ('' for its own box). */
export interface ParcelCells {
  weightGrams: number | null;
  packaging: string;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
}

export interface ReadRow {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  product: ProductOnlyRow;
  size:
    | (Pick<ProductCsvRow, 'sizeName' | 'price' | 'reduction' | 'stock'> & {
        /** Undefined when the file has no parcel columns: the size's stay as they are. */
        parcel: ParcelCells | undefined;
      })
    | undefined;
}

export interface ProductCsvRead {
  rows: ReadRow[];
  errors: CsvRowError[];
  /** Rows up to the last one that is not blank, the header not counted. */
  rowCount: number;
}

const productOnlySchema = productCsvRowSchema.omit({
  sizeName: true,
  price: true,
  reduction: true,
  stock: true,
  weight: true,
  packaging: true,
  length: true,
  width: true,
  height: true,
});

/**
 * The longest record read into memory: every cell at its longest, with room to spare. A longer
 * one is refused as it is read, before its cells are checked one by one.
 */
const MAX_RECORD_CHARS = 4 * MAX_CELL_CHARS;

function tooManyRows(): BadRequestError {
  return new BadRequestError(
    `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-GB')} rows (blank rows count); an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en-GB')} rows. Split it in two.`,
    'file',
  );
}

/** Undoes the export's formula guard: one leading apostrophe before a character it guards. */
function unguarded(value: string): string {
  return value.startsWith("'") && formulaStart.test(value.slice(1)) ? value.slice(1) : value;
}

/**
 * The file's rows, each checked on its own: a valid row is read into what it means, a bad cell is
 * an error naming its row and column. A file that cannot be read as the products CSV at all (not
 * CSV, a column missing or unknown, too many rows) is a 400 naming `file`.
 */
export function readProductCsv(text: string): ProductCsvRead {
  const keyOf = new Map(Object.entries(productCsvColumns).map(([key, name]) => [name.toLowerCase(), key]));
  let header: string[] | undefined;
  /** The file has the parcel columns (all five). */
  let hasParcel = false;
  const rows: ReadRow[] = [];
  const errors: CsvRowError[] = [];
  /** The number of the last row that was not blank, the header not counted. */
  let rowCount = 0;

  function onHeader(record: string[]): void {
    const names = record.map((name) => name.trim());
    if (names.every((name) => name === '')) {
      throw new BadRequestError('The file is empty: it needs the header row and a row for each size', 'file');
    }
    // Excel in much of Europe, and some exports, save "CSV" with semicolons or tabs: the whole header
    // is then one cell. Said plainly, rather than as every column missing and one unknown.
    if (names.length === 1) {
      const separator = [
        [';', 'semicolons'],
        ['\t', 'tabs'],
      ].find(([mark]) => names[0]!.includes(mark!));
      if (separator)
        throw new BadRequestError(
          `This file uses ${separator[1]} between its columns; save it as CSV, comma-separated, and send it again.`,
          'file',
        );
    }
    // Each check is one pass over the header (a Set, not indexOf per name): its length is capped,
    // but a quadratic check once held the event loop for seconds.
    const named = new Set(names.map((name) => name.toLowerCase()));
    const unknown = names.filter((name) => name !== '' && !keyOf.has(name.toLowerCase()));
    const missing = requiredCsvHeader.filter((name) => !named.has(name.toLowerCase()));
    const parcelNames = parcelCsvColumns.map((key) => productCsvColumns[key]);
    const parcelGiven = parcelNames.filter((name) => named.has(name.toLowerCase()));
    hasParcel = parcelGiven.length === parcelNames.length;
    // The parcel columns come together: a size's box is its packaging or its three sides.
    if (parcelGiven.length > 0 && !hasParcel)
      missing.push(...parcelNames.filter((name) => !named.has(name.toLowerCase())));
    const seen = new Set<string>();
    const repeated = new Set<string>();
    for (const name of names) {
      if (name === '') continue;
      if (seen.has(name.toLowerCase())) repeated.add(name);
      seen.add(name.toLowerCase());
    }
    if (unknown.length || missing.length || repeated.size) {
      const parts = [
        missing.length ? `missing ${missing.map((name) => `"${name}"`).join(', ')}` : '',
        unknown.length ? `unknown ${unknown.map((name) => `"${name}"`).join(', ')}` : '',
        repeated.size ? `repeated ${[...repeated].map((name) => `"${name}"`).join(', ')}` : '',
      ].filter(Boolean);
      throw new BadRequestError(
        `The header row must name these columns once each: ${requiredCsvHeader.join(', ')}, and may name all of ${parcelCsvColumns.map((key) => productCsvColumns[key]).join(', ')} (${parts.join('; ')})`,
        'file',
      );
    }
    header = names;
  }

  function onRow(record: string[], row: number): void {
    if (record.every((value) => value.trim() === '')) return;
    rowCount = row - 1;
    const names = header as string[];
    if (record.length > names.length && record.slice(names.length).some((value) => value.trim() !== '')) {
      errors.push({
        row,
        column: null,
        message: `This row has ${record.length} cells; the header has ${names.length}`,
      });
      return;
    }
    const cells: Record<string, string> = {};
    names.forEach((name, column) => {
      const key = keyOf.get(name.toLowerCase());
      if (key) cells[key] = unguarded(record[column] ?? '');
    });
    const productOnly = sizeColumns.every((key) => (cells[key] ?? '').trim() === '');
    const schema = productOnly ? productOnlySchema : productCsvRowSchema;
    const parsed = schema.safeParse(cells);
    if (!parsed.success) {
      const seenKeys = new Set<string>();
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (seenKeys.has(key)) continue;
        seenKeys.add(key);
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
      size: productOnly
        ? undefined
        : {
            sizeName: data.sizeName,
            price: data.price,
            reduction: data.reduction,
            stock: data.stock,
            parcel: hasParcel
              ? {
                  weightGrams: data.weight ?? null,
                  packaging: data.packaging ?? '',
                  lengthMm: data.length ?? null,
                  widthMm: data.width ?? null,
                  heightMm: data.height ?? null,
                }
              : undefined,
          },
    });
  }

  try {
    // Each record is checked as it is read and not kept (on_record answers null), and each cell is
    // looked at as it ends (cast), so a hostile file is refused at the first cell past a limit.
    parse(text, {
      bom: true,
      relax_column_count: true,
      // Empty lines are skipped as they are read (they are still counted in the rows' numbers):
      // kept as records, each cost csv-parse an error object for its length, a second per 20,000.
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
      cast: (value, context) => {
        const row = context.records + context.empty_lines + 1;
        if (context.index >= MAX_IMPORT_COLUMNS) {
          throw new BadRequestError(
            `${row === 1 ? 'The header row' : `Row ${row}`} has more than ${MAX_IMPORT_COLUMNS} columns; the file may have at most ${MAX_IMPORT_COLUMNS} columns.`,
            'file',
          );
        }
        if (value.length > MAX_CELL_CHARS) {
          throw new BadRequestError(
            `Row ${row}, column ${context.index + 1}: a cell may hold at most ${MAX_CELL_CHARS.toLocaleString('en-GB')} characters.`,
            'file',
          );
        }
        return value;
      },
      on_record: (record: string[], context) => {
        // The row as a spreadsheet numbers it: the header is row 1, and blank lines count.
        const row = context.records + context.empty_lines;
        if (header === undefined) onHeader(record);
        else if (row - 1 > MAX_IMPORT_ROWS) {
          // Past the limit even a row of empty cells is refused: each costs csv-parse more than a
          // cell does, and a file of a million of them is refused, not read to its end.
          throw tooManyRows();
        } else onRow(record, row);
        return null;
      },
    });
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') {
      throw new BadRequestError(
        `Row ${((error as { records?: number }).records ?? 0) + 1} is too long: a row may hold at most ${MAX_RECORD_CHARS.toLocaleString('en-GB')} characters.`,
        'file',
      );
    }
    const where = (error as { lines?: number }).lines;
    throw new BadRequestError(
      `The file is not CSV that can be read${where ? ` (near line ${where})` : ''}: ${(error as Error).message}`,
      'file',
    );
  }
  if (header === undefined) {
    throw new BadRequestError('The file is empty: it needs the header row and a row for each size', 'file');
  }
  return { rows, errors, rowCount };
}
