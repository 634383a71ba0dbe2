import { MAX_SIZES } from '../../contract/admin/catalogue.ts';
import {
  productCsvColumns,
  TYPE_PATH_SEPARATOR,
  type CsvRowError,
  type ProductCsvColumn,
  type ProductImportChange,
} from '../../contract/admin/products-csv.ts';
import { penceToDecimal } from '../../contract/money.ts';
import {
  typeRows,
  type ProductRecord,
  type ProductWrite,
  type SizeRecord,
  type SizeWrite,
} from './catalog.admin-repository.ts';
import type { Db } from './catalogue-changes.ts';
import { productWriteOf, sizeWriteOf } from './product-rows.ts';
import { productColumns, type ParcelCells, type ProductCsvRead, type ReadRow } from './products-csv.ts';
import { parcelFactsSchema, type ParcelFacts } from '../../contract/admin/shipping.ts';
import { listPackagings } from '../shipping/packagings.repository.ts';
import {
  brandRows,
  lockSizesOfProducts,
  oldUrlKeysAmong,
  productsByUrlKeys,
  sizesOfProducts,
} from './products-csv.admin-repository.ts';
import { typeChainNames, type TypeRow } from './type-tree.ts';

/**
 * An import's plan (docs/back-office.md#csv-import-and-export): everything the file would do to the
 * catalogue as a transaction sees it now, and every error that stops it. Made in three steps: read
 * what the database holds of the file's products, validate each product's rows against it, and
 * diff what is valid against what is there.
 */

/** Products planned between turns of the event loop: a 20,000-row plan is not one long block. */
const PLAN_BATCH = 20;

type Column = ProductCsvColumn;
const columnName = (column: Column) => productCsvColumns[column];

/** A type's place in the tree as the file writes it, and how a name in the file finds a type. */
export function typeIndex(types: readonly TypeRow[]) {
  const pathOf = new Map(
    types.map((type) => [type.id, typeChainNames(type.id, types).reverse().join(TYPE_PATH_SEPARATOR)]),
  );
  const normal = (text: string) =>
    text
      .split(/[>›]/)
      .map((part) => part.trim().toLowerCase())
      .join('>');
  const byPath = new Map([...pathOf].map(([id, path]) => [normal(path), id]));
  const byName = new Map<string, number[]>();
  for (const type of types) {
    const name = type.name.trim().toLowerCase();
    byName.set(name, [...(byName.get(name) ?? []), type.id]);
  }
  return {
    pathOf: (id: number) => pathOf.get(id) ?? '',
    /** The path, or a name only one type has. */
    find(text: string): { id: number } | { problem: string } {
      const id = byPath.get(normal(text));
      if (id !== undefined) return { id };
      const named = byName.get(text.trim().toLowerCase()) ?? [];
      if (named.length === 1) return { id: named[0] as number };
      if (named.length > 1) {
        return {
          problem: `${named.length} types are called "${text.trim()}": write its place, e.g. "${pathOf.get(named[0] as number)}"`,
        };
      }
      return {
        problem: `There is no type "${text.trim()}" (write it as the export does, e.g. "Percussion > Dholaks")`,
      };
    },
  };
}

export interface NewSize {
  write: SizeWrite;
  stock: number;
}

export interface Plan {
  rowCount: number;
  errors: CsvRowError[];
  creates: Array<{ write: ProductWrite; sizes: NewSize[] }>;
  productUpdates: Array<{ id: number; write: ProductWrite }>;
  sizeInserts: Array<NewSize & { productId: number }>;
  sizeUpdates: Array<{ productId: number; sizeId: number; write: SizeWrite }>;
  stockTargets: Array<{
    row: number;
    stockId: number;
    title: string;
    sizeName: string;
    current: number;
    target: number;
  }>;
  changes: ProductImportChange[];
  unchanged: number;
  updatedKeys: string[];
}

/** The product columns whose values differ between the database's row and the file's, in the file's words. */
const productFieldColumns: Array<[keyof ProductWrite, Column]> = [
  ['title', 'title'],
  ['status', 'status'],
  ['product_type_id', 'type'],
  ['brand_id', 'brand'],
  ['description', 'description'],
  ['seo_title', 'seoTitle'],
  ['seo_keywords', 'seoKeywords'],
  ['seo_description', 'seoDescription'],
  ['tags', 'searchTags'],
];
const writeKeys: Array<keyof ProductWrite> = [
  'title',
  'status',
  'product_type_id',
  'brand_id',
  'description',
  'seo_title',
  'seo_keywords',
  'seo_description',
  'tags',
  'search_tags',
  'search_text',
];

/** What the database holds of the file's products, and the types and brands they may name. */
interface Catalogue {
  types: TypeRow[];
  typesFound: ReturnType<typeof typeIndex>;
  brandByName: Map<string, { id: number; name: string }>;
  productByKey: Map<string, ProductRecord>;
  oldKeyHolder: Map<string, { old_key: string; title: string; url_key: string }>;
  sizesOf: Map<number, SizeRecord[]>;
  /** Packaging presets by name in lower case, and their names by id. */
  packagingByName: Map<string, number>;
  packagingNameOf: Map<number, string>;
}

/** The file's rows by product: pushed, not copied (20,000 rows under one URL key copied the group 20,000 times). */
function groupByProduct(read: ProductCsvRead): Map<string, ReadRow[]> {
  const groups = new Map<string, ReadRow[]>();
  for (const row of read.rows) {
    const group = groups.get(row.product.urlKey);
    if (group) group.push(row);
    else groups.set(row.product.urlKey, [row]);
  }
  return groups;
}

/**
 * Reads what the file's products are now. To be carried out, their sizes are locked before their
 * levels are read, so each correction's delta still takes the level to the file's number when it
 * is applied.
 */
async function readCatalogue(trx: Db, keys: string[], purpose: 'preview' | 'apply'): Promise<Catalogue> {
  const [types, brands, existing, packagings] = await Promise.all([
    typeRows(trx),
    brandRows(trx),
    productsByUrlKeys(trx, keys),
    listPackagings(trx),
  ]);
  const productByKey = new Map(existing.map((product) => [product.url_key, product]));
  if (purpose === 'apply') {
    await lockSizesOfProducts(
      trx,
      existing.map((product) => product.id),
    );
  }
  const [oldKeys, sizes] = await Promise.all([
    oldUrlKeysAmong(
      trx,
      keys.filter((key) => !productByKey.has(key)),
    ),
    sizesOfProducts(
      trx,
      existing.map((product) => product.id),
    ),
  ]);
  const sizesOf = new Map<number, SizeRecord[]>();
  for (const size of sizes) {
    const list = sizesOf.get(size.product_id);
    if (list) list.push(size);
    else sizesOf.set(size.product_id, [size]);
  }
  return {
    types,
    typesFound: typeIndex(types),
    brandByName: new Map(brands.map((brand) => [brand.name.trim().toLowerCase(), brand])),
    productByKey,
    oldKeyHolder: new Map(oldKeys.map((old) => [old.old_key, old])),
    sizesOf,
    packagingByName: new Map(packagings.map((packaging) => [packaging.name.trim().toLowerCase(), packaging.id])),
    packagingNameOf: new Map(packagings.map((packaging) => [packaging.id, packaging.name])),
  };
}

/** A product's rows with their sizes, each matched by name (in any case) with the size it has now, if any. */
function matchSizes(rows: ReadRow[], current: SizeRecord[]) {
  const byName = new Map(current.map((size) => [size.size_name.trim().toLowerCase(), size]));
  return rows.flatMap((row) =>
    row.size ? [{ row: row.row, size: row.size, match: byName.get(row.size.sizeName.toLowerCase()) }] : [],
  );
}

/** Which column of the file each parcel fact is written in. */
const parcelColumnOf: Record<keyof ParcelFacts, Column> = {
  weightGrams: 'weight',
  packagingId: 'packaging',
  lengthMm: 'length',
  widthMm: 'width',
  heightMm: 'height',
};

/** A row's parcel cells as the product form would send them: the packaging named found by its id. */
function parcelFactsOf(parcel: ParcelCells, catalogue: Catalogue): ParcelFacts | { problem: string } {
  let packagingId: number | null = null;
  if (parcel.packaging !== '') {
    const found = catalogue.packagingByName.get(parcel.packaging.toLowerCase());
    if (found === undefined) return { problem: `There is no packaging "${parcel.packaging}"` };
    packagingId = found;
  }
  return {
    weightGrams: parcel.weightGrams,
    packagingId,
    lengthMm: parcel.lengthMm,
    widthMm: parcel.widthMm,
    heightMm: parcel.heightMm,
  };
}

type Validated = { problems: CsvRowError[] } | { problems: []; typeId: number; brand: { id: number; name: string } };

/** Everything wrong with one product's rows, or the type and brand they name. */
function validateProduct(urlKey: string, rows: ReadRow[], catalogue: Catalogue): Validated {
  const first = rows[0] as ReadRow;
  const problems: CsvRowError[] = [];
  const problem = (row: number, column: Column, message: string) =>
    problems.push({ row, column: columnName(column), message });

  // Every row of a product says the same of it; otherwise two products share a key, or an edit missed a row.
  for (const row of rows.slice(1)) {
    for (const column of productColumns) {
      const caseless = column === 'type' || column === 'brand';
      // Every product column is text once read (trimmed, as its schema reads it).
      const [a, b] = [String(first.product[column]), String(row.product[column])];
      if (caseless ? a.toLowerCase() !== b.toLowerCase() : a !== b) {
        problem(
          row.row,
          column,
          `Row ${first.row} has the same URL key with a different ${columnName(column).toLowerCase()}: a product's rows must agree, or each product needs a URL key of its own`,
        );
      }
    }
  }
  const type = catalogue.typesFound.find(first.product.type);
  if ('problem' in type) problem(first.row, 'type', type.problem);
  const brand = catalogue.brandByName.get(first.product.brand.trim().toLowerCase());
  if (!brand) problem(first.row, 'brand', `There is no brand "${first.product.brand}"`);
  const old = catalogue.oldKeyHolder.get(urlKey);
  if (old) {
    problem(
      first.row,
      'urlKey',
      `"${urlKey}" is an old URL key of "${old.title}", whose key is now "${old.url_key}": use that to change it, or another key for a new product`,
    );
  }
  const seenSize = new Map<string, number>();
  for (const row of rows) {
    if (!row.size) continue;
    const name = row.size.sizeName.toLowerCase();
    const before = seenSize.get(name);
    if (before !== undefined) {
      problem(row.row, 'sizeName', `Row ${before} has the size "${row.size.sizeName}" of this product already`);
    }
    seenSize.set(name, row.row);
  }

  for (const row of rows) {
    const parcel = row.size?.parcel;
    if (!parcel) continue;
    const facts = parcelFactsOf(parcel, catalogue);
    if ('problem' in facts) {
      problem(row.row, 'packaging', facts.problem);
      continue;
    }
    const checked = parcelFactsSchema.safeParse(facts);
    if (!checked.success) {
      const named = new Set<string>();
      for (const issue of checked.error.issues) {
        const column = parcelColumnOf[String(issue.path[0]) as keyof ParcelFacts];
        if (named.has(column)) continue;
        named.add(column);
        problem(row.row, column, issue.message);
      }
    }
  }

  const record = catalogue.productByKey.get(urlKey);
  const current = record ? (catalogue.sizesOf.get(record.id) ?? []) : [];
  const newSizes = matchSizes(rows, current).filter((size) => !size.match);
  for (const size of newSizes) {
    if (size.size.stock === undefined) problem(size.row, 'stock', 'Please enter the stock of a new size');
  }
  if (!record && newSizes.length === 0)
    problem(first.row, 'sizeName', 'A new product needs at least one size or style');
  const sizeCount = current.length + newSizes.length;
  if (sizeCount > MAX_SIZES) {
    problem(
      newSizes[0]?.row ?? first.row,
      'sizeName',
      `A product may have at most ${MAX_SIZES} sizes; this one would have ${sizeCount}`,
    );
  }
  if (problems.length > 0 || 'problem' in type || !brand) return { problems };
  return { problems: [], typeId: type.id, brand };
}

/** A size's parcel facts the file changes, in its words; none when the file has no parcel columns. */
function parcelChanges(write: SizeWrite, match: SizeRecord, label: string, catalogue: Catalogue): string[] {
  if (write.weight_grams === undefined) return [];
  const shown = (value: number | null | undefined) => (value == null ? 'none' : String(value));
  const packagingName = (id: number | null | undefined) =>
    id == null ? 'none' : (catalogue.packagingNameOf.get(id) ?? String(id));
  const facts: Array<[Column, number | null | undefined, number | null, (value: number | null | undefined) => string]> =
    [
      ['weight', write.weight_grams, match.weight_grams, shown],
      ['packaging', write.packaging_id, match.packaging_id, packagingName],
      ['length', write.length_mm, match.length_mm, shown],
      ['width', write.width_mm, match.width_mm, shown],
      ['height', write.height_mm, match.height_mm, shown],
    ];
  return facts
    .filter(([, next, now]) => (next ?? null) !== now)
    .map(([column, next, now, show]) => `${columnName(column)} of ${label}: ${show(now)} to ${show(next)}`);
}

/** What a valid product's rows change of it (or that it is new), added to the plan. */
function diffProduct(
  urlKey: string,
  rows: ReadRow[],
  catalogue: Catalogue,
  found: { typeId: number; brand: { id: number; name: string } },
  result: Plan,
): void {
  const first = rows[0] as ReadRow;
  const record = catalogue.productByKey.get(urlKey);
  const current = record ? (catalogue.sizesOf.get(record.id) ?? []) : [];
  const finalNames = new Map(current.map((size) => [size.id, size.size_name]));
  const newSizes: NewSize[] = [];
  const changes: string[] = [];
  let nextPosition = Math.max(-1, ...current.map((size) => size.sort_order)) + 1;
  for (const { row, size, match } of matchSizes(rows, current)) {
    const parcel = size.parcel ? parcelFactsOf(size.parcel, catalogue) : undefined;
    const fields = {
      sizeName: size.sizeName,
      priceWithoutDiscount: size.price,
      priceReduction: size.reduction,
      // Validated before: a problem here never reaches the diff.
      ...(parcel && !('problem' in parcel) ? { parcel } : {}),
    };
    if (!match) {
      newSizes.push({ write: sizeWriteOf(fields, nextPosition++), stock: size.stock ?? 0 });
      changes.push(`New size "${fields.sizeName}"`);
      continue;
    }
    const write = sizeWriteOf(fields, match.sort_order);
    const label = `"${match.size_name}"`;
    const sizeChanges = [
      write.size_name !== match.size_name ? `${label} renamed "${write.size_name}"` : '',
      write.price_without_discount !== match.price_without_discount
        ? `${columnName('price')} of ${label}: ${penceToDecimal(match.price_without_discount)} to ${penceToDecimal(write.price_without_discount)}`
        : '',
      write.price_reduction !== match.price_reduction
        ? `${columnName('reduction')} of ${label}: ${match.price_reduction} to ${write.price_reduction}`
        : '',
      ...parcelChanges(write, match, label, catalogue),
    ].filter(Boolean);
    if (sizeChanges.length > 0) result.sizeUpdates.push({ productId: match.product_id, sizeId: match.id, write });
    changes.push(...sizeChanges);
    finalNames.set(match.id, write.size_name);
    if (size.stock !== undefined && size.stock !== match.stock) {
      result.stockTargets.push({
        row,
        stockId: match.id,
        title: first.product.title,
        sizeName: write.size_name,
        current: match.stock,
        target: size.stock,
      });
      changes.push(`${columnName('stock')} of ${label}: ${match.stock} to ${size.stock}`);
    }
  }

  const write = productWriteOf(
    { ...first.product, urlKey, productTypeId: found.typeId, brandId: found.brand.id },
    {
      types: catalogue.types,
      brandName: found.brand.name,
      sizeNames: [...finalNames.values(), ...newSizes.map((size) => size.write.size_name)],
    },
  );
  if (record) {
    // A product saved before SEO fields were filled in keeps them blank when the file leaves them blank.
    if (!first.product.seoTitle && !record.seo_title) write.seo_title = '';
    if (!first.product.seoDescription && !record.seo_description) write.seo_description = '';
  }
  const change = { row: first.row, urlKey, title: write.title };
  if (!record) {
    result.creates.push({ write, sizes: newSizes });
    result.changes.push({ ...change, action: 'create', changes: [] });
    return;
  }
  const productChanges = productFieldColumns
    .filter(([key]) => write[key] !== record[key])
    .map(([, column]) => `${columnName(column)}`);
  result.sizeInserts.push(...newSizes.map((size) => ({ ...size, productId: record.id })));
  const all = [...productChanges, ...changes];
  if (all.length === 0) {
    result.unchanged++;
    return;
  }
  // Its search columns follow what changed (a new or renamed size is searched by).
  if (writeKeys.some((key) => write[key] !== record[key])) result.productUpdates.push({ id: record.id, write });
  result.changes.push({ ...change, action: 'update', changes: all });
  result.updatedKeys.push(urlKey);
}

/** The file's plan against the catalogue as `trx` sees it now: read, validate, diff. */
export async function planImport(trx: Db, read: ProductCsvRead, purpose: 'preview' | 'apply'): Promise<Plan> {
  const groups = groupByProduct(read);
  const catalogue = await readCatalogue(trx, [...groups.keys()], purpose);
  const result: Plan = {
    rowCount: read.rowCount,
    errors: [...read.errors],
    creates: [],
    productUpdates: [],
    sizeInserts: [],
    sizeUpdates: [],
    stockTargets: [],
    changes: [],
    unchanged: 0,
    updatedKeys: [],
  };
  let planned = 0;
  for (const [urlKey, rows] of groups) {
    if (++planned % PLAN_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    const validated = validateProduct(urlKey, rows, catalogue);
    if ('typeId' in validated) diffProduct(urlKey, rows, catalogue, validated, result);
    else result.errors.push(...validated.problems);
  }
  result.errors.sort((a, b) => a.row - b.row);
  return result;
}
