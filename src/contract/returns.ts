import { z } from 'zod';
import { MAX_ID } from './basket-rules.ts';

/**
 * Returns after dispatch (docs/rules.md#returns): what a shopper may send back from the order page,
 * and the back office's queue of requests. Money is integer pence; times are ISO text.
 */

export const returnReasons = ['changed_mind', 'faulty', 'damaged_in_transit', 'wrong_item'] as const;
export type ReturnReason = (typeof returnReasons)[number];
export const returnReasonLabels: Record<ReturnReason, string> = {
  changed_mind: 'I changed my mind',
  faulty: 'It is faulty',
  damaged_in_transit: 'It arrived damaged',
  wrong_item: 'It is not what I ordered',
};

export const returnStatuses = ['requested', 'authorised', 'refused', 'received', 'refunded'] as const;
export type ReturnStatus = (typeof returnStatuses)[number];
export const returnStatusLabels: Record<ReturnStatus, string> = {
  requested: 'Requested',
  authorised: 'Authorised: please send it back',
  refused: 'Refused',
  received: 'Received',
  refunded: 'Refunded',
};

export const returnConditions = ['as_new', 'opened', 'used', 'damaged', 'faulty'] as const;
export type ReturnCondition = (typeof returnConditions)[number];
export const returnConditionLabels: Record<ReturnCondition, string> = {
  as_new: 'As new',
  opened: 'Opened',
  used: 'Used',
  damaged: 'Damaged',
  faulty: 'Faulty',
};

/** What the shopper may attach: photos of damage, checked from their bytes. */
export const returnPhotoLimits = { maxPhotos: 3, maxBytes: 5 * 1024 * 1024 } as const;
export { MADE_TO_ORDER_NOTE } from './made-to-order.ts';

const id = z.number().int().min(1).max(MAX_ID);

/** A return request as the order page sends it (with photos as `photo` parts when multipart). */
export const returnRequestSchema = z.object({
  reason: z.enum(returnReasons, { error: 'Please choose why you are returning it' }),
  note: z.string().trim().max(2000, 'Please keep the note under 2,000 characters').default(''),
  lines: z
    .array(
      z.object({ orderLineId: id, quantity: z.number().int().min(1, 'Please choose at least one unit').max(10_000) }),
    )
    .min(1, 'Please choose at least one item to return')
    .max(100),
});
export type ReturnRequest = z.input<typeof returnRequestSchema>;

export const orderPageKeyParams = z.object({ key: z.string().min(1).max(200) });

const returnLineSchema = z.object({
  orderLineId: z.number().int(),
  title: z.string(),
  sizeName: z.string(),
  quantity: z.number().int(),
  /** At receipt: units put back in stock, and the state they came back in. */
  restocked: z.number().int().nullable(),
  condition: z.enum(returnConditions).nullable(),
});

export const shopperReturnSchema = z.object({
  raNumber: z.string(),
  status: z.enum(returnStatuses),
  reason: z.enum(returnReasons),
  note: z.string(),
  requestedAt: z.string(),
  refusalReason: z.string().nullable(),
  refundAmount: z.number().int().nullable(),
  lines: z.array(returnLineSchema),
});
export type ShopperReturn = z.infer<typeof shopperReturnSchema>;

/** GET /api/order-page/:key/returns: what can be returned now, and this order's returns. */
export const orderReturnsSchema = z.object({
  orderNumber: z.number().int(),
  lines: z.array(
    z.object({
      orderLineId: z.number().int(),
      title: z.string(),
      sizeName: z.string(),
      unitPrice: z.number().int(),
      /** Units that may be returned now. */
      returnable: z.number().int(),
      /** The last day of the window for the units that may be returned (ISO), null when none. */
      windowEndsAt: z.string().nullable(),
      madeToOrder: z.boolean(),
      reasons: z.array(z.enum(returnReasons)),
    }),
  ),
  returns: z.array(shopperReturnSchema),
  /** Where authorised returns are sent. */
  returnAddress: z.string(),
});
export type OrderReturns = z.infer<typeof orderReturnsSchema>;

// The back office.

export const returnIdParams = z.object({ id: z.coerce.number().int().min(1).max(MAX_ID) });
export const returnPhotoParams = returnIdParams.extend({ position: z.coerce.number().int().min(1).max(3) });

export const returnQueueQuerySchema = z.object({
  /** `open` (default): requested, authorised and received; `closed`: refused and refunded. */
  show: z.enum(['open', 'closed']).default('open'),
});

export const adminReturnSchema = z.object({
  id: z.number().int(),
  raNumber: z.string(),
  orderNumber: z.number().int(),
  email: z.string(),
  name: z.string(),
  status: z.enum(returnStatuses),
  reason: z.enum(returnReasons),
  note: z.string(),
  refusalReason: z.string().nullable(),
  requestedAt: z.string(),
  receivedAt: z.string().nullable(),
  /** 14 days after the goods came back: the refund's deadline. */
  refundDueAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  refundAmount: z.number().int().nullable(),
  deduction: z.number().int(),
  deductionReason: z.string().nullable(),
  photos: z.array(z.number().int()),
  lines: z.array(returnLineSchema.extend({ unitPrice: z.number().int() })),
  /** What the refund comes to before any deduction: the goods as paid, and delivery on a whole order. */
  refundDue: z.object({ goods: z.number().int(), delivery: z.number().int(), cap: z.number().int() }),
});
export type AdminReturn = z.infer<typeof adminReturnSchema>;
export const returnQueueSchema = z.object({ returns: z.array(adminReturnSchema) });
export type ReturnQueue = z.infer<typeof returnQueueSchema>;

export const refuseReturnSchema = z.object({
  reason: z.string().trim().min(1, 'Please say why the return is refused').max(2000),
});

export const receiveReturnSchema = z.object({
  lines: z
    .array(
      z.object({
        orderLineId: id,
        restock: z.number().int().min(0).max(10_000),
        condition: z.enum(returnConditions),
      }),
    )
    .min(1),
});
export type ReceiveReturn = z.infer<typeof receiveReturnSchema>;

export const refundReturnSchema = z
  .object({
    /**
     * A deduction for diminished value (handling beyond what was needed to inspect it), pence: on a
     * change of mind only, and from the goods' price only (CCR 2013 reg 34(9)-(12); the service checks).
     */
    deduction: z.number().int().min(0).max(100_000_000).default(0),
    deductionReason: z.string().trim().max(2000).default(''),
  })
  .refine((body) => body.deduction === 0 || body.deductionReason.length > 0, {
    message: 'Please say why the value is diminished',
    path: ['deductionReason'],
  });
export type RefundReturn = z.input<typeof refundReturnSchema>;
