import { z } from 'zod';
import { goodsLessVoucherShare } from './money.ts';

/**
 * Cancelling before dispatch from the customer's order page (docs/rules.md#cancelling-before-dispatch):
 * what may still be cancelled and what each would refund, and the shopper's choice. Money is
 * integer pence.
 */

const pence = z.number().int();

/** The order page's link key (src/server/orders/order-links.ts): checked by the server, not here. */
export const cancellationParamsSchema = z.object({ key: z.string().min(1).max(200) });

export const cancellableLineSchema = z.object({
  lineId: z.number().int(),
  title: z.string(),
  sizeName: z.string(),
  /** Units ordered. */
  quantity: z.number().int(),
  /** The price of one unit as the order charged it, before the voucher's share. */
  unitPrice: pence,
  /** Units not yet sent, put back or held by a refund in flight: those that may be cancelled. */
  cancellableUnits: z.number().int(),
});
export type CancellableLine = z.infer<typeof cancellableLineSchema>;

/** What the refund of a cancellation is made from: the order's amounts as it was paid. */
export const cancellationPricingSchema = z.object({
  itemsTotal: pence,
  discount: pence,
  deliveryPrice: pence,
  /** What is left to refund on the order: no refund goes past it. */
  leftToRefund: pence,
  /**
   * The goods' worth (at their unit prices) refunds took back already: the voucher's share of these
   * units runs on from it, so shares taken piece by piece add up to the whole discount.
   */
  goodsTakenBack: pence,
});
export type CancellationPricing = z.infer<typeof cancellationPricingSchema>;

export const cancellationOptionsSchema = z.object({
  orderNumber: z.number().int(),
  /** Whether anything may be cancelled now. */
  cancellable: z.boolean(),
  /** Why not, in the shopper's words, when nothing may be cancelled. */
  notCancellable: z.string().nullable(),
  lines: z.array(cancellableLineSchema),
  pricing: cancellationPricingSchema,
  /** The refund if the whole order is cancelled; null once part of it has been sent. */
  wholeOrderRefund: pence.nullable(),
  /** How the money goes back, as a sentence's end: "to the card you paid with". */
  refundsTo: z.string(),
});
export type CancellationOptions = z.infer<typeof cancellationOptionsSchema>;

export const cancellationRequestSchema = z
  .object({
    /** Everything not yet sent, with the delivery price. */
    whole: z.boolean().optional(),
    /** Or some units of some lines. */
    lines: z
      .array(
        z.object({
          lineId: z.number().int().positive(),
          quantity: z.number().int().min(1, 'Choose at least one unit').max(999),
        }),
      )
      .max(100)
      .optional(),
  })
  .superRefine((request, context) => {
    if (request.whole && request.lines !== undefined)
      context.addIssue({ code: 'custom', path: ['lines'], message: 'Cancel the whole order or some items, not both' });
    if (!request.whole && (request.lines ?? []).length === 0)
      context.addIssue({ code: 'custom', path: ['lines'], message: 'Choose at least one item to cancel' });
    const seen = new Set<number>();
    for (const [index, line] of (request.lines ?? []).entries()) {
      if (seen.has(line.lineId))
        context.addIssue({ code: 'custom', path: ['lines', index, 'lineId'], message: 'That item is chosen twice' });
      seen.add(line.lineId);
    }
  });
export type CancellationRequest = z.infer<typeof cancellationRequestSchema>;

export const cancellationResultSchema = z.object({
  /** `refunded`: the provider made the refund. `refund pending`: it has not confirmed yet; it is on its way. */
  outcome: z.enum(['refunded', 'refund pending']),
  whole: z.boolean(),
  amount: pence,
  refundsTo: z.string(),
  cancelled: z.array(
    z.object({ lineId: z.number().int(), title: z.string(), sizeName: z.string(), quantity: z.number().int() }),
  ),
  /** What the shopper is told, in full. */
  message: z.string(),
});
export type CancellationResult = z.infer<typeof cancellationResultSchema>;

/**
 * The refund for cancelling these units: their price less their share of the voucher's discount
 * (in proportion to the goods' price, running on from the goods refunds took back already, so
 * cancelling every unit, at once or a few at a time, gives exactly the whole discount back), plus
 * the delivery price when the whole order is cancelled; never more than is left to refund, never
 * a fee. The server charges the same sum the page shows.
 */
export function cancellationRefund(
  pricing: CancellationPricing,
  units: ReadonlyArray<{ unitPrice: number; quantity: number }>,
  whole: boolean,
): number {
  const goods = units.reduce((sum, unit) => sum + unit.unitPrice * unit.quantity, 0);
  const amount = goodsLessVoucherShare(goods, pricing, pricing.goodsTakenBack) + (whole ? pricing.deliveryPrice : 0);
  return Math.max(0, Math.min(amount, pricing.leftToRefund));
}
