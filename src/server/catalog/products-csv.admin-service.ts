import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { MAX_SIZES } from '../../contract/admin/catalogue.ts';
import {
  MAX_LISTED,
  productCsvColumns,
  TYPE_PATH_SEPARATOR,
  type CsvRowError,
  type ProductCsvColumn,
  type ProductImportChange,
  type ProductImportSummary,
} from '../../contract/admin/products-csv.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { penceToDecimal } from '../../contract/money.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  typeRows,
  updateProduct,
  updateSize,
  type ProductRecord,
  type ProductWrite,
  type SizeRecord,
  type SizeWrite,
} from './catalog.admin-repository.ts';
import { productWriteOf, sizeWriteOf } from './product-rows.ts';
import { readProductCsvOffThread } from './products-csv-reader.ts';
import {
  productCsvHeaderLine,
  productCsvLine,
  productColumns,
  type ProductCsvRead,
  type ReadRow,
} from './products-csv.ts';
import {
  brandRows,
  exportBatch,
  insertProducts,
  insertSizes,
  lockSizesOfProducts,
  oldUrlKeysAmong,
  productsByUrlKeys,
  sizesOfProducts,
} from './products-csv.admin-repository.ts';
import { adjustStockLevel, insertStockAdjustments, type StockAdjustmentRecord } from './stock.admin-repository.ts';
import { typeChainNames, type TypeRow } from './type-tree.ts';

/**
 * Products as CSV (docs/back-office.md#csv-import-and-export). The export streams every product,
 * a row per size. An import is planned from the file and what the database holds: the preview
 * answers the plan and writes nothing; apply plans again inside one transaction and carries it out
 * there, or, with any error, does nothing. Products are matched by URL key, sizes by name (in any
 * case); sizes not in the file are left as they are. A stock level in the file is reached through
 * a "correction" adjustment whose delta is worked out inside the transaction, from a level read
 * with the size locked (on PostgreSQL; SQLite's writes run one at a time), so neither a checkout
 * nor another import can slip between the read and the write: the file's level is the level.
 */

type Db = Kysely<Database>;

const EXPORT_BATCH = 500;
/** Products planned between turns of the event loop: a 20,000-row plan is not one long block. */
const PLAN_BATCH = 20;
/** Keys named in the import's audit entry, of each kind; the counts are whole. */
const AUDIT_KEYS = 200;

type Column = ProductCsvColumn;
const columnName = (column: Column) => productCsvColumns[column];

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A type's place in the tree as the file writes it, and how a name in the file finds a type. */
function typeIndex(types: readonly TypeRow[]) {
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

interface NewSize {
  write: SizeWrite;
  stock: number;
}

interface Plan {
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

export function createProductsCsvService(db: Db, options: { onChange: () => void; now?: () => Date }) {
  const now = () => (options.now?.() ?? new Date()).toISOString();

  /**
   * Everything the file would do to the catalogue as `trx` sees it now, and every error that stops
   * it. To be carried out, its products' sizes are locked before their levels are read, so each
   * correction's delta still takes the level to the file's number when it is applied.
   */
  async function plan(trx: Db, read: ProductCsvRead, purpose: 'preview' | 'apply'): Promise<Plan> {
    const errors = [...read.errors];
    // Pushed, not copied: 20,000 rows under one URL key copied the group 20,000 times.
    const groups = new Map<string, ReadRow[]>();
    for (const row of read.rows) {
      const group = groups.get(row.product.urlKey);
      if (group) group.push(row);
      else groups.set(row.product.urlKey, [row]);
    }
    const keys = [...groups.keys()];

    const [types, brands, existing] = await Promise.all([typeRows(trx), brandRows(trx), productsByUrlKeys(trx, keys)]);
    const typesFound = typeIndex(types);
    const brandByName = new Map(brands.map((brand) => [brand.name.trim().toLowerCase(), brand]));
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
    const oldKeyHolder = new Map(oldKeys.map((old) => [old.old_key, old]));
    const sizesOf = new Map<number, SizeRecord[]>();
    for (const size of sizes) {
      const list = sizesOf.get(size.product_id);
      if (list) list.push(size);
      else sizesOf.set(size.product_id, [size]);
    }

    const result: Plan = {
      rowCount: read.rowCount,
      errors,
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
      const type = typesFound.find(first.product.type);
      if ('problem' in type) problem(first.row, 'type', type.problem);
      const brand = brandByName.get(first.product.brand.trim().toLowerCase());
      if (!brand) problem(first.row, 'brand', `There is no brand "${first.product.brand}"`);
      const old = oldKeyHolder.get(urlKey);
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

      const record: ProductRecord | undefined = productByKey.get(urlKey);
      const current = record ? (sizesOf.get(record.id) ?? []) : [];
      const byName = new Map(current.map((size) => [size.size_name.trim().toLowerCase(), size]));
      const finalNames = new Map(current.map((size) => [size.id, size.size_name]));
      const newSizes: Array<NewSize & { row: number }> = [];
      const changes: string[] = [];
      let nextPosition = Math.max(-1, ...current.map((size) => size.sort_order)) + 1;
      for (const row of rows) {
        if (!row.size) continue;
        const fields = {
          sizeName: row.size.sizeName,
          priceWithoutDiscount: row.size.price,
          priceReduction: row.size.reduction,
        };
        const match = byName.get(row.size.sizeName.toLowerCase());
        if (!match) {
          if (row.size.stock === undefined) problem(row.row, 'stock', 'Please enter the stock of a new size');
          newSizes.push({ row: row.row, write: sizeWriteOf(fields, nextPosition++), stock: row.size.stock ?? 0 });
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
        ].filter(Boolean);
        if (sizeChanges.length > 0) {
          result.sizeUpdates.push({ productId: match.product_id, sizeId: match.id, write });
        }
        changes.push(...sizeChanges);
        finalNames.set(match.id, write.size_name);
        if (row.size.stock !== undefined && row.size.stock !== match.stock) {
          result.stockTargets.push({
            row: row.row,
            stockId: match.id,
            title: first.product.title,
            sizeName: write.size_name,
            current: match.stock,
            target: row.size.stock,
          });
          changes.push(`${columnName('stock')} of ${label}: ${match.stock} to ${row.size.stock}`);
        }
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
      if (problems.length > 0 || 'problem' in type || !brand) {
        errors.push(...problems);
        continue;
      }

      const write = productWriteOf(
        {
          ...first.product,
          urlKey,
          productTypeId: type.id,
          brandId: brand.id,
        },
        {
          types,
          brandName: brand.name,
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
        continue;
      }
      const productChanges = productFieldColumns
        .filter(([key]) => write[key] !== record[key])
        .map(([, column]) => `${columnName(column)}`);
      result.sizeInserts.push(...newSizes.map((size) => ({ ...size, productId: record.id })));
      const all = [...productChanges, ...changes];
      if (all.length === 0) {
        result.unchanged++;
        continue;
      }
      // Its search columns follow what changed (a new or renamed size is searched by).
      if (writeKeys.some((key) => write[key] !== record[key])) result.productUpdates.push({ id: record.id, write });
      result.changes.push({ ...change, action: 'update', changes: all });
      result.updatedKeys.push(urlKey);
    }
    errors.sort((a, b) => a.row - b.row);
    return result;
  }

  function summaryOf(p: Plan, applied: boolean): ProductImportSummary {
    return {
      rows: p.rowCount,
      productsCreated: p.creates.length,
      productsUpdated: p.updatedKeys.length,
      productsUnchanged: p.unchanged,
      sizesCreated: p.creates.reduce((n, create) => n + create.sizes.length, 0) + p.sizeInserts.length,
      sizesUpdated: p.sizeUpdates.length,
      stockAdjustments: p.stockTargets.length,
      changes: p.changes.slice(0, MAX_LISTED),
      errorCount: p.errors.length,
      errors: p.errors.slice(0, MAX_LISTED),
      applied,
    };
  }

  /** Carries out a plan without errors in `trx`; answers the stock adjustments made. */
  async function carryOut(trx: Db, p: Plan, staff: Staff, at: string): Promise<void> {
    const ids = await insertProducts(
      trx,
      p.creates.map((create) => create.write),
    );
    await insertSizes(trx, [
      ...p.creates.flatMap((create) =>
        create.sizes.map((size) => ({
          ...size.write,
          stock: size.stock,
          product_id: ids.get(create.write.url_key) as number,
        })),
      ),
      ...p.sizeInserts.map((size) => ({ ...size.write, stock: size.stock, product_id: size.productId })),
    ]);
    for (const update of p.productUpdates) await updateProduct(trx, update.id, update.write);
    for (const update of p.sizeUpdates) await updateSize(trx, update.productId, update.sizeId, update.write);
    const adjustments: StockAdjustmentRecord[] = [];
    for (const target of p.stockTargets) {
      // The level read in this transaction: the delta is what takes it to the file's level now.
      const delta = target.target - target.current;
      const stockAfter = await adjustStockLevel(trx, target.stockId, delta);
      if (stockAfter === undefined) {
        throw new RefusedError(
          409,
          errorCodes.conflict,
          `Row ${target.row}: units of ${target.title} (${target.sizeName}) were sold while the file was imported, so its stock cannot be set to ${target.target}. Nothing was imported; please try again.`,
          'file',
        );
      }
      adjustments.push({
        stockId: target.stockId,
        staff,
        at,
        delta,
        reason: 'correction',
        note: 'CSV import',
        stockAfter,
      });
    }
    await insertStockAdjustments(trx, adjustments);
  }

  return {
    /** Every product, a row per size, in the order they were made, a batch at a time. */
    async *exportCsv(): AsyncGenerator<string> {
      const types = typeIndex(await typeRows(db));
      yield productCsvHeaderLine;
      for (let afterId = 0; ;) {
        const batch = await exportBatch(db, afterId, EXPORT_BATCH);
        const sizesOf = new Map<number, typeof batch.sizes>();
        for (const size of batch.sizes) sizesOf.set(size.product_id, [...(sizesOf.get(size.product_id) ?? []), size]);
        for (const product of batch.products) {
          const common = {
            urlKey: product.url_key,
            title: product.title,
            status: product.status,
            typePath: types.pathOf(product.product_type_id),
            brandName: product.brand_name,
            description: product.description,
            seoTitle: product.seo_title,
            seoKeywords: product.seo_keywords,
            seoDescription: product.seo_description,
            searchTags: product.tags,
          };
          const sizes = sizesOf.get(product.id) ?? [];
          if (sizes.length === 0) yield productCsvLine(common);
          for (const size of sizes) {
            yield productCsvLine({
              ...common,
              size: {
                sizeName: size.size_name,
                priceWithoutDiscount: size.price_without_discount,
                priceReduction: size.price_reduction,
                stock: size.stock,
              },
            });
          }
        }
        if (batch.products.length < EXPORT_BATCH) return;
        afterId = (batch.products.at(-1) as { id: number }).id;
      }
    },

    /** What the file would do, and every error in it; nothing is written. */
    async preview(text: string): Promise<ProductImportSummary> {
      return summaryOf(await plan(db, await readProductCsvOffThread(text), 'preview'), false);
    },

    /** The file's changes in one transaction, with one audit entry; with any error, none of them. */
    async apply(text: string, staff: Staff): Promise<ProductImportSummary> {
      const at = now();
      // Read before the transaction opens: nothing is held while the thread reads the file.
      const read = await readProductCsvOffThread(text);
      let p: Plan;
      try {
        p = await db.transaction().execute(async (trx) => {
          const planned = await plan(trx, read, 'apply');
          if (planned.errors.length > 0) {
            throw new BadRequestError(
              `The file has ${plural(planned.errors.length, 'error')}, so nothing was imported. Correct ${planned.errors.length === 1 ? 'it' : 'them'} and send the file again.`,
              undefined,
              planned.errors.slice(0, MAX_LISTED).map((error) => ({
                field: error.column ? `row ${error.row}, ${error.column}` : `row ${error.row}`,
                message: error.message,
              })),
            );
          }
          await carryOut(trx, planned, staff, at);
          const createdKeys = planned.creates.map((create) => create.write.url_key);
          await recordAudit(trx, {
            staff,
            action: 'product.import',
            entityType: 'product_import',
            entityId: createHash('sha256').update(text).digest('hex').slice(0, 16),
            after: {
              rows: planned.rowCount,
              productsCreated: createdKeys.length,
              productsUpdated: planned.updatedKeys.length,
              productsUnchanged: planned.unchanged,
              stockAdjustments: planned.stockTargets.length,
              created: createdKeys.slice(0, AUDIT_KEYS),
              updated: planned.updatedKeys.slice(0, AUDIT_KEYS),
            },
            at,
          });
          return planned;
        });
      } catch (error) {
        // Another import or a product saved at the same moment took one of the new URL keys.
        if (isUniqueViolation(error)) {
          throw new RefusedError(
            409,
            errorCodes.conflict,
            'A product with one of these URL keys was saved while the file was imported. Nothing was imported; please preview the file again.',
            'file',
          );
        }
        throw error;
      }
      options.onChange();
      return summaryOf(p, true);
    },
  };
}

export type ProductsCsvService = ReturnType<typeof createProductsCsvService>;
