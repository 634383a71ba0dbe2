import { z } from 'zod';
import { MAX_ID, MAX_ORDER_TOTAL } from '../basket-rules.ts';
import { deliveryKinds, fulfilments, orderStatuses, paymentStatuses } from '../order-status.ts';
import { paymentProviders } from '../payments.ts';
import { auditEntrySchema } from './audit.ts';
import { addressSchema as checkoutAddressSchema, guestSchema } from '../basket.ts';
import { isOneLine } from '../fields.ts';

/** The back office's orders (docs/back-office.md#orders). Money is integer pence. */

/** A day that exists, as YYYY-MM-DD (2026-02-30 and 0000-00-00 are refused, not turned into errors later). */
export const isoDate = z.string().refine((day) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day && day >= '2000-01-01';
}, 'a date that exists, as YYYY-MM-DD, from 2000-01-01');
export const orderSorts = ['newest', 'oldest', 'total-high', 'total-low'] as const;

export const orderListQuerySchema = z.object({
  status: z.enum(orderStatuses).optional(),
  paid: z.enum(['paid', 'unpaid']).optional(),
  /** The payment as people read it (paymentStatusOf): paid, partially refunded, refunded... */
  payment: z.enum(paymentStatuses).optional(),
  fulfilment: z.enum(fulfilments).optional(),
  /** `dispatch`: the packer's list, paid orders not refunded in full and not yet on their way. */
  waiting: z.enum(['dispatch']).optional(),
  provider: z.enum(paymentProviders).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** An order number, an e-mail address (or its start), a name or a postcode. */
  q: z.string().trim().max(100).optional(),
  sort: z.enum(orderSorts).default('newest'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type OrderListQuery = z.input<typeof orderListQuerySchema>;

export const orderSummarySchema = z.object({
  id: z.number().int(),
  orderNumber: z.number().int(),
  createdAt: z.string(),
  status: z.enum(orderStatuses),
  /** The payment as people read it, from the status and the refunds (paymentStatusOf). */
  payment: z.enum(paymentStatuses),
  fulfilment: z.enum(fulfilments),
  customerName: z.string(),
  email: z.string(),
  postcode: z.string(),
  total: z.number().int(),
  refundedTotal: z.number().int(),
  provider: z.string().nullable(),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderListSchema = z.object({
  orders: z.array(orderSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type OrderList = z.infer<typeof orderListSchema>;

const addressSchema = z.object({
  line1: z.string(),
  line2: z.string(),
  line3: z.string(),
  townCity: z.string(),
  postcode: z.string(),
  country: z.string(),
});

export const orderLineViewSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  productStockId: z.number().int(),
  title: z.string(),
  sizeName: z.string(),
  unitPrice: z.number().int(),
  quantity: z.number().int(),
  lineTotal: z.number().int(),
  /** Units already put back in stock by refunds. */
  restocked: z.number().int(),
  /** Units sent so far, in the order's fulfilments. */
  dispatched: z.number().int(),
  /** Units still to send: ordered, less those sent and those refunds put back in stock. */
  toDispatch: z.number().int(),
});

/** Some units of an order's lines sent together: in tracked parcels, or untracked by a service. */
export const fulfilmentViewSchema = z.object({
  id: z.number().int(),
  method: z.enum(['tracked', 'untracked']),
  service: z.string().nullable(),
  createdAt: z.string(),
  staffEmail: z.string().nullable(),
  lines: z.array(
    z.object({ orderLineId: z.number().int(), title: z.string(), sizeName: z.string(), quantity: z.number().int() }),
  ),
  parcels: z.array(z.object({ carrier: z.string(), trackingNumber: z.string(), trackingUrl: z.string().nullable() })),
});
export type FulfilmentView = z.infer<typeof fulfilmentViewSchema>;

export const paymentEventViewSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  providerStatus: z.string(),
  outcome: z.string(),
  receivedAt: z.string(),
});

/**
 * A payment the order received and should not keep, for staff to send back in the provider's own
 * pages: `paid twice`, a second payment for an order already paid; `cancelled by staff`, a payment
 * taken on the provider's own page for an order staff had cancelled.
 */
export const paymentToRefundViewSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  /** The provider's id for the payment: a PayPal capture id, an IPN txn_id, an Opayo VPSTxId. */
  reference: z.string(),
  amount: z.number().int(),
  reason: z.enum(['paid twice', 'cancelled by staff']),
  receivedAt: z.string(),
});

export const refundViewSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  amount: z.number().int(),
  provider: z.string(),
  reference: z.string(),
  recordedAt: z.string(),
});

export const timelineEntrySchema = z.object({ at: z.string(), text: z.string() });

export const orderDetailSchema = orderSummarySchema.extend({
  code: z.string(),
  customerId: z.number().int().nullable(),
  contactNumber: z.string(),
  billingAddress: addressSchema,
  deliveryAddress: addressSchema,
  deliveryMethod: z.string(),
  /** Sent (dispatched, then delivered) or collected (ready for collection, then collected). */
  deliveryKind: z.enum(deliveryKinds),
  deliveryPrice: z.number().int(),
  itemsTotal: z.number().int(),
  discount: z.number().int(),
  voucherCode: z.string().nullable(),
  totalVat: z.number().int(),
  reservedUntil: z.string(),
  paidAt: z.string().nullable(),
  transactionId: z.string().nullable(),
  paymentNote: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  dispatchedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  lines: z.array(orderLineViewSchema),
  fulfilments: z.array(fulfilmentViewSchema),
  refunds: z.array(refundViewSchema),
  paymentEvents: z.array(paymentEventViewSchema),
  paymentsToRefund: z.array(paymentToRefundViewSchema),
  audit: z.array(auditEntrySchema),
  timeline: z.array(timelineEntrySchema),
  /**
   * Where a refund goes: `provider` sends the money back through the provider that took it (PayPal
   * Checkout); `outside` records a refund staff made in the provider's own pages (PayPal Standard,
   * Opayo Form and orders paid before: their protocols have no refund call we can make).
   */
  refundsThrough: z.enum(['provider', 'outside']),
  /** What staff may do to it now, from the lifecycle's rules. */
  actions: z.array(
    z.enum([
      'dispatch',
      'deliver',
      'ready-for-collection',
      'collect',
      'cancel',
      'refund',
      'change-delivery-details',
      'resend-confirmation',
    ]),
  ),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderNumberParamsSchema = z.object({ orderNumber: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Carriers the shop knows a tracking page for; any other name is kept as typed, without a link. */
export const knownCarriers = ['Royal Mail', 'Parcelforce', 'DPD', 'Evri', 'DHL', 'UPS'] as const;

/** One tracked parcel: its carrier and tracking number. */
export const dispatchSchema = z.object({
  carrier: z
    .string()
    .trim()
    .min(1, 'Please name the carrier')
    .max(60)
    .refine(isOneLine, 'Please write this on one line'),
  trackingNumber: z
    .string()
    .trim()
    .min(1, 'Please enter the tracking number')
    .max(60)
    .regex(/^[A-Za-z0-9 -]*$/, 'A tracking number has letters, digits, spaces and dashes only'),
});
export type DispatchInput = z.input<typeof dispatchSchema>;
export const parcelSchema = dispatchSchema;
export type ParcelInput = DispatchInput;

/** The services an untracked fulfilment may go by. */
export const untrackedServices = ['Royal Mail 1st Class', 'Royal Mail 2nd Class'] as const;
export type UntrackedService = (typeof untrackedServices)[number];

/**
 * A fulfilment (docs/back-office.md#orders): some lines of the order, with how many units of each
 * (every unit not yet sent, when no lines are named), in one or more tracked parcels or untracked
 * by a named service. The body of one tracked parcel, `{carrier, trackingNumber}`, still works: it
 * sends everything not yet sent in that parcel.
 */
export const fulfilmentSchema = z
  .object({
    lines: z
      .array(
        z.object({
          orderLineId: z.number().int().min(1).max(MAX_ID),
          quantity: z.number().int().min(0).max(10_000),
        }),
      )
      .max(100)
      .optional(),
    parcels: z.array(dispatchSchema).min(1, 'Please add a parcel').max(20, 'At most 20 parcels').optional(),
    untracked: z.object({ service: z.enum(untrackedServices, { error: 'Please choose a service' }) }).optional(),
    carrier: dispatchSchema.shape.carrier.optional(),
    trackingNumber: dispatchSchema.shape.trackingNumber.optional(),
  })
  .superRefine((body, ctx) => {
    const oneParcel = body.carrier !== undefined || body.trackingNumber !== undefined;
    if (oneParcel) {
      if (body.carrier === undefined)
        ctx.addIssue({ code: 'custom', path: ['carrier'], message: 'Please name the carrier' });
      if (body.trackingNumber === undefined)
        ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'Please enter the tracking number' });
    }
    const ways = [oneParcel, body.parcels !== undefined, body.untracked !== undefined].filter(Boolean).length;
    if (ways === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['parcels'],
        message: 'Please add a parcel, or choose an untracked service',
      });
    if (ways > 1)
      ctx.addIssue({
        code: 'custom',
        path: [body.untracked !== undefined ? 'untracked' : 'parcels'],
        message: 'A fulfilment is sent in tracked parcels or untracked, not both',
      });
    const seen = new Set<number>();
    body.lines?.forEach((line, i) => {
      if (seen.has(line.orderLineId))
        ctx.addIssue({ code: 'custom', path: ['lines', i, 'orderLineId'], message: 'Each line once' });
      seen.add(line.orderLineId);
    });
  })
  .transform((body) => ({
    lines: body.lines,
    parcels:
      body.parcels ??
      (body.carrier !== undefined && body.trackingNumber !== undefined
        ? [{ carrier: body.carrier, trackingNumber: body.trackingNumber }]
        : undefined),
    untracked: body.untracked,
  }));
export type FulfilmentInput = z.input<typeof fulfilmentSchema>;
export type FulfilmentRequest = z.output<typeof fulfilmentSchema>;

export const cancelSchema = z.object({ reason: z.string().trim().max(500).optional() });

export const refundSchema = z.object({
  // No order comes to more than MAX_ORDER_TOTAL, so no refund can; a larger number is refused
  // here, before a 32-bit sum in the database could fail on it.
  amount: z
    .number({ error: 'Please enter the amount in pence' })
    .int()
    .min(1, 'The amount must be at least 1p')
    .max(MAX_ORDER_TOTAL, 'The amount is at most £1,000,000, the most one order may come to'),
  reason: z.string().trim().min(1, 'Please give a reason').max(500),
  /** Lines to put back in stock, with how many units of each. */
  restock: z
    .array(z.object({ lineId: z.number().int().min(1).max(MAX_ID), quantity: z.number().int().min(1).max(10_000) }))
    .max(100)
    .default([]),
});
export type RefundInput = z.input<typeof refundSchema>;

/** POST /api/admin/orders/{n}/notes: a note staff keep on an order, never shown to the customer. */
export const orderNoteSchema = z.object({
  note: z.string().trim().min(1, 'Please write the note').max(2_000, 'A note is at most 2,000 characters'),
});

/**
 * PUT /api/admin/orders/{n}/delivery-details: where a parcel not yet sent goes and how to reach
 * the customer, checked as checkout checks them. The country stays the order's: its delivery was
 * priced for it.
 */
export const deliveryDetailsSchema = z.object({
  deliveryAddress: checkoutAddressSchema.omit({ countryId: true, countryName: true }),
  contactNumber: guestSchema.shape.contactNumber,
  email: guestSchema.shape.email,
});
export type DeliveryDetailsInput = z.input<typeof deliveryDetailsSchema>;
