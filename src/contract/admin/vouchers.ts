import { z } from 'zod';
import { MAX_ORDER_TOTAL, MAX_VOUCHER_AMOUNT, VOUCHER_CODE_MAX } from '../basket-rules.ts';
import { orderSummarySchema } from './orders.ts';

/**
 * Vouchers in the back office (docs/back-office.md#vouchers). Codes are kept upper-case, as the
 * basket looks them up; amounts are pence, or a whole percentage; dates are UTC days, both included.
 */

/** The years a voucher's days may fall in: a typing slip such as 0202 or 9999 is refused, not stored. */
export const VOUCHER_YEARS = { first: 2000, last: 2099 } as const;

/**
 * A day that exists (zod's ISO date checks the month's length and leap years), so 2026-02-31 is
 * refused rather than stored as typed and read as 3 March, within VOUCHER_YEARS.
 */
const isoDate = z.iso.date({ error: 'Please enter a real date, such as 2026-03-31', abort: true }).refine((day) => {
  const year = Number(day.slice(0, 4));
  return year >= VOUCHER_YEARS.first && year <= VOUCHER_YEARS.last;
}, `Please enter a date from ${VOUCHER_YEARS.first} to ${VOUCHER_YEARS.last}`);

export const voucherInputSchema = z
  .object({
    code: z
      .string({ error: 'Please enter a code' })
      .trim()
      .min(3, 'A code has at least 3 characters')
      .max(VOUCHER_CODE_MAX, `A code has at most ${VOUCHER_CODE_MAX} characters`)
      .regex(/^[A-Za-z0-9-]+$/, 'A code has letters, digits and dashes only')
      .transform((code) => code.toUpperCase()),
    kind: z.enum(['percent', 'fixed'], { error: 'Please choose a percentage or an amount' }),
    /** Pence for a fixed amount (at most £10,000); a whole percentage (1 to 100) for a percentage. */
    amount: z
      .number({ error: 'Please enter the amount' })
      .int('Please enter a whole number')
      .min(1, 'The amount must be at least 1'),
    minSpend: z
      .number({ error: 'Please enter the minimum spend in pence (0 for none)' })
      .int('Please enter whole pence')
      .min(0, 'The minimum spend cannot be below 0')
      .max(MAX_ORDER_TOTAL, 'The minimum spend is at most £1,000,000'),
    validFrom: isoDate,
    validTo: isoDate,
    /** How many orders may use it in all; null for no limit. */
    usageLimit: z
      .number({ error: 'Please enter a whole number' })
      .int('Please enter a whole number')
      .min(1, 'A usage limit is at least 1')
      .nullable(),
    active: z.boolean(),
  })
  .superRefine((voucher, ctx) => {
    if (voucher.kind === 'percent' && voucher.amount > 100) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'A percentage is at most 100' });
    }
    if (voucher.kind === 'fixed' && voucher.amount > MAX_VOUCHER_AMOUNT) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'An amount off is at most £10,000' });
    }
    // Two real days in the same yyyy-mm-dd form compare as strings in calendar order.
    const dates = [voucher.validFrom, voucher.validTo].every((date) => isoDate.safeParse(date).success);
    if (dates && voucher.validTo < voucher.validFrom) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'The last day cannot be before the first' });
    }
  });
export type VoucherInput = z.input<typeof voucherInputSchema>;
export type VoucherFields = z.output<typeof voucherInputSchema>;

export const voucherSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  amount: z.number().int(),
  minSpend: z.number().int(),
  validFrom: z.string(),
  validTo: z.string(),
  usageLimit: z.number().int().nullable(),
  timesUsed: z.number().int(),
  active: z.boolean(),
});
export type Voucher = z.infer<typeof voucherSchema>;

export const voucherListQuerySchema = z.object({
  /** Part of a code, in any case. */
  q: z.string().trim().max(VOUCHER_CODE_MAX).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type VoucherListQuery = z.input<typeof voucherListQuerySchema>;

export const voucherListSchema = z.object({
  vouchers: z.array(voucherSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type VoucherList = z.infer<typeof voucherListSchema>;

export const voucherIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** A voucher with the orders that used it, newest first (the latest 100) and how many in all. */
export const voucherDetailSchema = voucherSchema.extend({
  uses: z.array(orderSummarySchema.extend({ discount: z.number().int() })),
  useCount: z.number().int(),
});
export type VoucherDetail = z.infer<typeof voucherDetailSchema>;
