import type { Kysely } from 'kysely';
import type {
  LowStockThresholdInput,
  StockAdjustmentInput,
  StockHistory,
  StockList,
  StockListFilters,
  StockRow,
} from '../../contract/admin/stock.ts';
import { MAX_NEW_STOCK } from '../../contract/admin/catalogue.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database } from '../db/schema.ts';
import { readSetting, writeSetting } from '../db/settings.repository.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import { searchNotReady } from './catalog.service.ts';
import {
  adjustStockLevel,
  findStockRow,
  insertStockAdjustment,
  listStock,
  stockAdjustmentsOf,
} from './stock.admin-repository.ts';

/**
 * The stock page (docs/back-office.md#stock): every size, found by title or size, low stock first
 * when asked; adjustments are deltas with a reason, each one conditional update with its history
 * row and audit entry in one transaction.
 */

const THRESHOLD_SETTING = 'low_stock_threshold';
const HISTORY_LENGTH = 200;

/** The owner's stored threshold, else LOW_STOCK_THRESHOLD from the configuration. */
export async function lowStockThresholdOf(db: Kysely<Database>, fallback: number): Promise<number> {
  const stored = await readSetting(db, THRESHOLD_SETTING);
  const value = stored === undefined ? Number.NaN : Number(stored);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

export function createStockAdminService(
  db: Kysely<Database>,
  options: {
    lowStockThreshold: number;
    now?: () => Date;
    /** Told after an adjustment: the shop's kept copies of the catalogue show stock (ADR 0010). */
    onChange?: () => void;
    /**
     * The products the shop's search engine finds for some words (search-engine.ts `matchingIds`),
     * so the stock page finds what the shop's search does (docs/decisions/0026-one-search-engine.md);
     * undefined while its index is not built in time.
     */
    matchingIds: (keyword: string) => Promise<Int32Array | undefined>;
  },
) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();
  const threshold = () => lowStockThresholdOf(db, options.lowStockThreshold);

  async function rowOrThrow(stockId: number, trx: Kysely<Database> = db): Promise<StockRow> {
    const row = await findStockRow(trx, stockId);
    if (!row) throw new NotFoundError(`There is no size ${stockId}`);
    return row;
  }

  return {
    async list(query: StockListFilters): Promise<StockList> {
      const lowStockThreshold = await threshold();
      const productIds = query.q ? await options.matchingIds(query.q) : undefined;
      if (query.q && !productIds) throw searchNotReady();
      const { rows, total } = await listStock(db, {
        productIds,
        atMost: query.low ? lowStockThreshold : undefined,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { rows, total, page: query.page, pageSize: query.pageSize, lowStockThreshold };
    },

    async history(stockId: number): Promise<StockHistory> {
      const [row, adjustments] = await Promise.all([
        rowOrThrow(stockId),
        stockAdjustmentsOf(db, stockId, HISTORY_LENGTH),
      ]);
      return {
        row,
        adjustments: adjustments.map((a) => ({
          id: a.id,
          at: a.at,
          staffEmail: a.staff_email,
          delta: a.delta,
          reason: a.reason,
          note: a.note,
          stockAfter: a.stock_after,
        })),
      };
    },

    /**
     * Applies a delta; a change that would leave fewer than 0 units, or more than a size may hold
     * (MAX_NEW_STOCK, which the product form and the CSV import enforce, so the owner's export
     * imports again), is refused and changes nothing.
     */
    async adjust(stockId: number, input: StockAdjustmentInput, staff: Staff): Promise<StockRow> {
      const { delta, reason, note } = input;
      const adjusted = await db.transaction().execute(async (trx) => {
        const stockAfter = await adjustStockLevel(trx, stockId, delta);
        if (stockAfter === undefined) {
          const row = await rowOrThrow(stockId, trx);
          const what = `${row.title} (${row.sizeName})`;
          throw new RefusedError(
            409,
            errorCodes.conflict,
            delta > 0
              ? `There are already ${row.stock} in stock of ${what}: adding ${delta} would leave more than the ${MAX_NEW_STOCK.toLocaleString('en-GB')} a size may hold.`
              : `There are only ${row.stock} in stock of ${what}: taking away ${-delta} would leave fewer than none.`,
          );
        }
        const at = now();
        await insertStockAdjustment(trx, { stockId, staff, at, delta, reason, note: note || null, stockAfter });
        await recordAudit(trx, {
          staff,
          action: 'stock.adjust',
          entityType: 'stock',
          entityId: stockId,
          before: { stock: stockAfter - delta },
          after: { stock: stockAfter, delta, reason, ...(note ? { note } : {}) },
          at,
        });
        return rowOrThrow(stockId, trx);
      });
      options.onChange?.();
      return adjusted;
    },

    async setLowStockThreshold(input: LowStockThresholdInput, staff: Staff): Promise<{ threshold: number }> {
      const before = await threshold();
      await db.transaction().execute(async (trx) => {
        await writeSetting(trx, THRESHOLD_SETTING, String(input.threshold));
        await recordAudit(trx, {
          staff,
          action: 'settings.low-stock-threshold',
          entityType: 'setting',
          entityId: THRESHOLD_SETTING,
          before: { threshold: before },
          after: { threshold: input.threshold },
          at: now(),
        });
      });
      return { threshold: input.threshold };
    },
  };
}

export type StockAdminService = ReturnType<typeof createStockAdminService>;
