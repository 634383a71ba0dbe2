import type { Kysely } from 'kysely';
import type { Dashboard, Sales } from '../../contract/admin/dashboard.ts';
import type { Database } from '../db/schema.ts';
import { lowStockThresholdOf } from '../catalog/stock.admin-service.ts';
import { summaryOf } from '../orders/orders.admin-service.ts';
import {
  lowStock,
  ordersWaitingToDispatch,
  paidOrdersByHour,
  unpaidOrdersEndingBefore,
} from './dashboard.admin-repository.ts';
import { ukDayMinus, ukDayOf, ukDayStart, ukWeekStart } from './uk-days.ts';

/**
 * The back office's first page (docs/back-office.md#dashboard): sales (paid orders, by the UK day
 * they were paid; gross includes delivery and VAT, before refunds), the last 30 days, and what
 * needs doing: orders to dispatch, unpaid orders about to lapse, stock running low.
 */
export const CHART_DAYS = 30;
const EXPIRING_WITHIN_MINUTES = 15;
const LIST_LENGTH = 10;

export function createDashboardService(db: Kysely<Database>, options: { lowStockThreshold: number; now?: () => Date }) {
  const now = options.now ?? (() => new Date());
  return {
    async dashboard(): Promise<Dashboard> {
      const at = now();
      const today = ukDayOf(at);
      const firstChartDay = ukDayMinus(today, CHART_DAYS - 1);
      const monthStart = `${today.slice(0, 8)}01`;
      const weekStart = ukWeekStart(today);
      const since = [firstChartDay, monthStart, weekStart].sort()[0]!;
      const hours = await paidOrdersByHour(db, ukDayStart(since).toISOString());

      const byDay = new Map<string, Sales>();
      for (const hour of hours) {
        const day = ukDayOf(new Date(`${hour.hour}:30:00.000Z`));
        const sales = byDay.get(day) ?? { count: 0, gross: 0, vat: 0 };
        byDay.set(day, { count: sales.count + hour.count, gross: sales.gross + hour.gross, vat: sales.vat + hour.vat });
      }
      const salesFrom = (first: string): Sales => {
        let total: Sales = { count: 0, gross: 0, vat: 0 };
        for (const [day, sales] of byDay) {
          if (day >= first && day <= today) {
            total = { count: total.count + sales.count, gross: total.gross + sales.gross, vat: total.vat + sales.vat };
          }
        }
        return total;
      };
      const daily = Array.from({ length: CHART_DAYS }, (_, i) => {
        const date = ukDayMinus(today, CHART_DAYS - 1 - i);
        const sales = byDay.get(date);
        return { date, count: sales?.count ?? 0, gross: sales?.gross ?? 0 };
      });

      // The owner's setting on the stock page, else LOW_STOCK_THRESHOLD.
      const lowStockThreshold = await lowStockThresholdOf(db, options.lowStockThreshold);
      const [waiting, expiring, low] = await Promise.all([
        ordersWaitingToDispatch(db, LIST_LENGTH),
        unpaidOrdersEndingBefore(
          db,
          at.toISOString(),
          new Date(at.getTime() + EXPIRING_WITHIN_MINUTES * 60_000).toISOString(),
          LIST_LENGTH,
        ),
        lowStock(db, lowStockThreshold, 20),
      ]);
      return {
        today: salesFrom(today),
        week: salesFrom(weekStart),
        month: salesFrom(monthStart),
        daily,
        awaitingDispatch: { count: waiting.count, oldest: waiting.oldest.map(summaryOf) },
        expiringSoon: expiring.map((order) => ({ ...summaryOf(order), reservedUntil: order.reserved_until })),
        lowStock: low.map((row) => ({ ...row, stock: Number(row.stock) })),
        lowStockThreshold,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
