import { z } from 'zod';
import { orderSummarySchema } from './orders.ts';

/** The back office's first page (docs/back-office.md#dashboard). Money is integer pence. */

/**
 * A period's paid orders (by when paid): how many, their gross (delivery and VAT included) and VAT;
 * the money sent back in it (by when refunded, whichever order it was for), gross less that, and
 * the average order's gross.
 */
const salesSchema = z.object({
  count: z.number().int(),
  gross: z.number().int(),
  vat: z.number().int(),
  refunds: z.number().int(),
  net: z.number().int(),
  averageOrder: z.number().int(),
});
export type Sales = z.infer<typeof salesSchema>;

export const dashboardSchema = z.object({
  /** Paid orders by the UK day they were paid: today, this week (from Monday) and this month. */
  today: salesSchema,
  week: salesSchema,
  month: salesSchema,
  /** The last 30 UK days, oldest first, each with its paid orders' count and gross. */
  daily: z.array(z.object({ date: z.string(), count: z.number().int(), gross: z.number().int() })),
  awaitingDispatch: z.object({ count: z.number().int(), oldest: z.array(orderSummarySchema) }),
  /** Unpaid orders whose reservation ends within the next 15 minutes. */
  expiringSoon: z.array(orderSummarySchema.extend({ reservedUntil: z.string() })),
  lowStock: z.array(
    z.object({
      productId: z.number().int(),
      stockId: z.number().int(),
      title: z.string(),
      sizeName: z.string(),
      stock: z.number().int(),
    }),
  ),
  /** Every size at or below the threshold; `lowStock` lists the lowest 20. */
  lowStockCount: z.number().int(),
  lowStockThreshold: z.number().int(),
  /** This month's five best-selling products, by money taken (line totals), then units. */
  topProducts: z.array(
    z.object({ productId: z.number().int(), title: z.string(), units: z.number().int(), gross: z.number().int() }),
  ),
  /** This month's paying customers: new (no paid order before the month) and returning. */
  customers: z.object({ new: z.number().int(), returning: z.number().int() }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
