import { listPackagings } from '../shipping/packagings.repository.ts';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { MAX_LISTED, type ProductImportSummary } from '../../contract/admin/products-csv.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import { typeRows, updateProduct, updateSize } from './catalog.admin-repository.ts';
import { plural } from './catalogue-changes.ts';
import { planImport, typeIndex, type Plan } from './products-csv-plan.ts';
import { readProductCsvOffThread } from './products-csv-reader.ts';
import { productCsvHeaderLine, productCsvLine } from './products-csv.ts';
import { exportBatch, insertProducts, insertSizes } from './products-csv.admin-repository.ts';
import { adjustStockLevel, insertStockAdjustments, type StockAdjustmentRecord } from './stock.admin-repository.ts';

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
/** Keys named in the import's audit entry, of each kind; the counts are whole. */
const AUDIT_KEYS = 200;

export function createProductsCsvService(db: Db, options: { onChange: () => void; now?: () => Date }) {
  const now = () => (options.now?.() ?? new Date()).toISOString();

  /**
   * Everything the file would do to the catalogue as `trx` sees it now, and every error that stops
   * it. To be carried out, its products' sizes are locked before their levels are read, so each
   * correction's delta still takes the level to the file's number when it is applied.
   */
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
      const packagingNames = new Map((await listPackagings(db)).map((packaging) => [packaging.id, packaging.name]));
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
                weightGrams: size.weight_grams,
                packaging: size.packaging_id === null ? '' : (packagingNames.get(size.packaging_id) ?? ''),
                lengthMm: size.length_mm,
                widthMm: size.width_mm,
                heightMm: size.height_mm,
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
      return summaryOf(await planImport(db, await readProductCsvOffThread(text), 'preview'), false);
    },

    /** The file's changes in one transaction, with one audit entry; with any error, none of them. */
    async apply(text: string, staff: Staff): Promise<ProductImportSummary> {
      const at = now();
      // Read before the transaction opens: nothing is held while the thread reads the file.
      const read = await readProductCsvOffThread(text);
      let p: Plan;
      try {
        p = await db.transaction().execute(async (trx) => {
          const planned = await planImport(trx, read, 'apply');
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
