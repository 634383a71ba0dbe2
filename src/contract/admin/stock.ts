import { z } from 'zod';

/** The stock page (docs/back-office.md#stock): every size of every product, adjusted by deltas. */

export const stockListQuerySchema = z.object({
  /** Words of a product, found as the shop's search finds them (by prefix, with its synonyms). */
  q: z.string().trim().max(100).optional(),
  /** Only sizes at or below the low-stock threshold, lowest first. */
  low: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type StockListQuery = z.input<typeof stockListQuerySchema>;
export type StockListFilters = z.output<typeof stockListQuerySchema>;

export const stockRowSchema = z.object({
  stockId: z.number().int(),
  productId: z.number().int(),
  title: z.string(),
  urlKey: z.string(),
  sizeName: z.string(),
  price: z.number().int(),
  stock: z.number().int(),
});
export type StockRow = z.infer<typeof stockRowSchema>;

export const stockListSchema = z.object({
  rows: z.array(stockRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  lowStockThreshold: z.number().int(),
});
export type StockList = z.infer<typeof stockListSchema>;

export const stockReasons = ['received', 'damaged', 'correction'] as const;
export type StockReason = (typeof stockReasons)[number];

export const stockAdjustmentSchema = z.object({
  delta: z
    .number({ error: 'Please enter the change in units, such as 5 or -2' })
    .int('Please enter a whole number of units')
    .min(-100_000, 'At most 100,000 units at a time')
    .max(100_000, 'At most 100,000 units at a time')
    .refine((delta) => delta !== 0, 'Please enter a change other than 0'),
  reason: z.enum(stockReasons, { error: 'Please choose a reason' }),
  note: z.string().trim().max(500, 'At most 500 characters').optional(),
});
export type StockAdjustmentInput = z.input<typeof stockAdjustmentSchema>;

export const stockIdParamsSchema = z.object({ stockId: z.coerce.number().int().min(1).max(2_147_483_647) });

export const stockAdjustmentViewSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staffEmail: z.string(),
  delta: z.number().int(),
  reason: z.enum(stockReasons),
  note: z.string().nullable(),
  stockAfter: z.number().int(),
});
export type StockAdjustmentView = z.infer<typeof stockAdjustmentViewSchema>;

export const stockHistorySchema = z.object({
  row: stockRowSchema,
  adjustments: z.array(stockAdjustmentViewSchema),
});
export type StockHistory = z.infer<typeof stockHistorySchema>;

export const lowStockThresholdSchema = z.object({
  threshold: z
    .number({ error: 'Please enter a number of units' })
    .int('Please enter a whole number of units')
    .min(0, 'The threshold cannot be below 0')
    .max(10_000, 'At most 10,000 units'),
});
export type LowStockThresholdInput = z.input<typeof lowStockThresholdSchema>;
