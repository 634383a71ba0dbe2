import type { Kysely } from 'kysely';
import type { Dashboard, Sales } from '../../contract/admin/dashboard.ts';
import type { Database } from '../db/schema.ts';
import { lowStockThresholdOf } from '../catalog/stock.admin-service.ts';
import { summaryOf } from '../orders/orders.admin-service.ts';
import {
  customersBetween,
  lowStock,
  lowStockCount,
  ordersWaitingToDispatch,
  paidOrdersByHour,
  refundsByHour,
  topProductsBetween,
  unpaidOrdersEndingBefore,
} from './dashboard.admin-repository.ts';
import { ukDayMinus, ukDayOf, ukDayStart, ukWeekStart } from './uk-days.ts';

/**
 * The back office's first page (docs/back-office.md#dashboard): sales (paid orders, by the UK day
 * they were paid; gross includes delivery and VAT; refunds by the day they were made, and gross
 * less them), the last 30 days, this month's best sellers and new and returning customers, and
 * what needs doing: orders to dispatch, unpaid orders about to lapse, stock running low.
 */
export const CHART_DAYS = 30;
const EXPIRING_WITHIN_MINUTES = 15;
const LIST_LENGTH = 10;
const LOW_STOCK_LISTED = 20;
const TOP_PRODUCTS = 5;

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
      const [hours, refundHours] = await Promise.all([
        paidOrdersByHour(db, ukDayStart(since).toISOString()),
        refundsByHour(db, ukDayStart(since).toISOString()),
      ]);

      type DaySums = Pick<Sales, 'count' | 'gross' | 'vat' | 'refunds'>;
      const byDay = new Map<string, DaySums>();
      const dayOf = (hour: string) => {
        const day = ukDayOf(new Date(`${hour}:30:00.000Z`));
        const sums = byDay.get(day) ?? { count: 0, gross: 0, vat: 0, refunds: 0 };
        byDay.set(day, sums);
        return sums;
      };
      for (const hour of hours) {
        const sums = dayOf(hour.hour);
        sums.count += hour.count;
        sums.gross += hour.gross;
        sums.vat += hour.vat;
      }
      for (const hour of refundHours) dayOf(hour.hour).refunds += hour.amount;
      const salesFrom = (first: string): Sales => {
        const total: DaySums = { count: 0, gross: 0, vat: 0, refunds: 0 };
        for (const [day, sums] of byDay) {
          if (day >= first && day <= today) {
            total.count += sums.count;
            total.gross += sums.gross;
            total.vat += sums.vat;
            total.refunds += sums.refunds;
          }
        }
        return {
          ...total,
          net: total.gross - total.refunds,
          averageOrder: total.count === 0 ? 0 : Math.round(total.gross / total.count),
        };
      };
      const daily = Array.from({ length: CHART_DAYS }, (_, i) => {
        const date = ukDayMinus(today, CHART_DAYS - 1 - i);
        const sales = byDay.get(date);
        return { date, count: sales?.count ?? 0, gross: sales?.gross ?? 0 };
      });

      // The owner's setting on the stock page, else LOW_STOCK_THRESHOLD.
      const lowStockThreshold = await lowStockThresholdOf(db, options.lowStockThreshold);
      const monthFrom = ukDayStart(monthStart).toISOString();
      const [waiting, expiring, low, lowCount, topProducts, customers] = await Promise.all([
        ordersWaitingToDispatch(db, LIST_LENGTH),
        unpaidOrdersEndingBefore(
          db,
          at.toISOString(),
          new Date(at.getTime() + EXPIRING_WITHIN_MINUTES * 60_000).toISOString(),
          LIST_LENGTH,
        ),
        lowStock(db, lowStockThreshold, LOW_STOCK_LISTED),
        lowStockCount(db, lowStockThreshold),
        topProductsBetween(db, monthFrom, at.toISOString(), TOP_PRODUCTS),
        customersBetween(db, monthFrom, at.toISOString()),
      ]);
      return {
        today: salesFrom(today),
        week: salesFrom(weekStart),
        month: salesFrom(monthStart),
        daily,
        awaitingDispatch: { count: waiting.count, oldest: waiting.oldest.map(summaryOf) },
        expiringSoon: expiring.map((order) => ({ ...summaryOf(order), reservedUntil: order.reserved_until })),
        lowStock: low.map((row) => ({ ...row, stock: Number(row.stock) })),
        lowStockCount: lowCount,
        lowStockThreshold,
        topProducts,
        customers,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
