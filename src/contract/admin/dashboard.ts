import { z } from 'zod';
import { orderSummarySchema } from './orders.ts';

/** The back office's first page (docs/back-office.md#dashboard). Money is integer pence. */

const salesSchema = z.object({ count: z.number().int(), gross: z.number().int(), vat: z.number().int() });
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
  lowStockThreshold: z.number().int(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
