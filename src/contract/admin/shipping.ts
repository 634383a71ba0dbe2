import { z } from 'zod';
import { isPlainLine } from '../fields.ts';

/**
 * Shipping labels in the back office (issue 38, docs/back-office.md#shipping-labels): what a
 * parcel weighs and measures, which carrier service each delivery method is sent by, and labels
 * bought from Royal Mail Click & Drop for orders waiting to be dispatched.
 */

/**
 * The services a delivery method may be sent by. `code` is Click & Drop's service code for an
 * online-postage account (docs/decisions/0028-click-and-drop-unclear-points.md: the codes an
 * account may use are set by its contract with Royal Mail).
 */
export const carrierServices = {
  tracked24: { label: 'Royal Mail Tracked 24', carrier: 'Royal Mail', code: 'TOLP24', tracked: true },
  tracked48: { label: 'Royal Mail Tracked 48', carrier: 'Royal Mail', code: 'TOLP48', tracked: true },
  firstClass: { label: 'Royal Mail 1st Class', carrier: 'Royal Mail', code: 'OLP1', tracked: false },
  secondClass: { label: 'Royal Mail 2nd Class', carrier: 'Royal Mail', code: 'OLP2', tracked: false },
  specialDelivery: {
    label: 'Royal Mail Special Delivery Guaranteed by 1pm',
    carrier: 'Royal Mail',
    code: 'SD1OLP',
    tracked: true,
  },
  parcelforceExpress24: { label: 'Parcelforce express24', carrier: 'Parcelforce', code: 'PFE24', tracked: true },
} as const;
export type CarrierService = keyof typeof carrierServices;
export const carrierServiceKeys = Object.keys(carrierServices) as [CarrierService, ...CarrierService[]];

/** Click & Drop's package formats (its `packageFormatIdentifier`), in the words staff read. */
export const packageFormats = {
  letter: 'Letter',
  largeLetter: 'Large letter',
  smallParcel: 'Small parcel',
  mediumParcel: 'Medium parcel',
  parcel: 'Parcel',
} as const;
export type PackageFormat = keyof typeof packageFormats;
export const packageFormatKeys = Object.keys(packageFormats) as [PackageFormat, ...PackageFormat[]];

/** A delivery method's carrier service and package format; both null when it has no labels. */
export const carrierChoiceSchema = z
  .object({
    carrierService: z.enum(carrierServiceKeys, { error: 'Please choose a carrier service' }).nullable(),
    packageFormat: z.enum(packageFormatKeys, { error: 'Please choose a package format' }).nullable(),
  })
  .superRefine((choice, ctx) => {
    if (choice.carrierService !== null && choice.packageFormat === null) {
      ctx.addIssue({ code: 'custom', path: ['packageFormat'], message: 'Please choose a package format' });
    }
  });

/** Heaviest parcel and longest side the shop sends: Parcelforce's own limits (30 kg, 1.5 m). */
export const MAX_WEIGHT_GRAMS = 30_000;
export const MAX_SIDE_MM = 1_500;

const grams = (what: string) =>
  z
    .number({ error: `Please enter ${what} in whole grams` })
    .int(`Please enter ${what} in whole grams`)
    .min(1, `${what[0]!.toUpperCase()}${what.slice(1)} must be at least 1 g`)
    .max(MAX_WEIGHT_GRAMS, `At most ${MAX_WEIGHT_GRAMS / 1000} kg`);
const side = (name: string) =>
  z
    .number({ error: `Please enter the ${name} in whole millimetres` })
    .int(`Please enter the ${name} in whole millimetres`)
    .min(1, `The ${name} must be at least 1 mm`)
    .max(MAX_SIDE_MM, `At most ${MAX_SIDE_MM} mm`);

/** A packaging preset: a box or crate and what it weighs empty. */
export const packagingInputSchema = z.object({
  name: z
    .string({ error: 'Please enter a name' })
    .trim()
    .min(1, 'Please enter a name')
    .max(100, 'At most 100 characters')
    .refine(isPlainLine, 'Please write the name on one line, without special characters'),
  lengthMm: side('length'),
  widthMm: side('width'),
  heightMm: side('height'),
  weightGrams: z
    .number({ error: 'Please enter the empty weight in whole grams' })
    .int('Please enter the empty weight in whole grams')
    .min(0, 'The empty weight cannot be below 0 g')
    .max(MAX_WEIGHT_GRAMS, `At most ${MAX_WEIGHT_GRAMS / 1000} kg`),
});
export type PackagingInput = z.input<typeof packagingInputSchema>;
export const packagingSchema = packagingInputSchema.extend({
  id: z.number().int(),
  /** Sizes sent in it: a preset in use cannot be deleted. */
  sizes: z.number().int(),
});
export type Packaging = z.infer<typeof packagingSchema>;
export const packagingListSchema = z.array(packagingSchema);

/**
 * A size's parcel facts, as the product form and the products CSV give them: its weight, and
 * either a packaging preset or its own dimensions (all three or none). Every field may be null:
 * a product without them can be sold, but its orders cannot have labels made until they are given.
 */
export const parcelFactsSchema = z
  .object({
    weightGrams: grams('the weight').nullable().default(null),
    packagingId: z.number({ error: 'Please choose a packaging' }).int().min(1).nullable().default(null),
    lengthMm: side('length').nullable().default(null),
    widthMm: side('width').nullable().default(null),
    heightMm: side('height').nullable().default(null),
  })
  .superRefine((facts, ctx) => {
    const sides = [facts.lengthMm, facts.widthMm, facts.heightMm];
    const given = sides.filter((value) => value !== null).length;
    if (facts.packagingId !== null && given > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['lengthMm'],
        message: 'Give either a packaging or its own dimensions, not both',
      });
    } else if (given > 0 && given < 3) {
      const missing = (['lengthMm', 'widthMm', 'heightMm'] as const).find((_, index) => sides[index] === null)!;
      ctx.addIssue({ code: 'custom', path: [missing], message: 'Please give all three dimensions, or none' });
    }
  });
export type ParcelFacts = z.output<typeof parcelFactsSchema>;
export const parcelFactsViewSchema = z.object({
  weightGrams: z.number().int().nullable(),
  packagingId: z.number().int().nullable(),
  lengthMm: z.number().int().nullable(),
  widthMm: z.number().int().nullable(),
  heightMm: z.number().int().nullable(),
});

// ---- Labels -----------------------------------------------------------------------------------

export const labelStatuses = ['creating', 'created', 'failed', 'dispatched', 'cancelled'] as const;
export type LabelStatus = (typeof labelStatuses)[number];

/** Most orders one "Make labels" takes: Click & Drop's own batch limit is 100 orders a call. */
export const MAX_LABEL_ORDERS = 100;

export const labelOrdersSchema = z.object({
  orderIds: z
    .array(z.number().int().min(1), { error: 'Please choose the orders' })
    .min(1, 'Please choose at least one order')
    .max(MAX_LABEL_ORDERS, `At most ${MAX_LABEL_ORDERS} orders at a time`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each order once'),
});
export type LabelOrders = z.infer<typeof labelOrdersSchema>;

/** What happened to one order when its label was asked for. */
export const labelOutcomeSchema = z.object({
  orderId: z.number().int(),
  orderNumber: z.string(),
  status: z.enum([...labelStatuses, 'refused']),
  trackingNumber: z.string().nullable(),
  /** Click & Drop's own words when it refused, or ours when the order cannot have a label. */
  message: z.string().nullable(),
});
export type LabelOutcome = z.infer<typeof labelOutcomeSchema>;
export const labelOutcomesSchema = z.object({ outcomes: z.array(labelOutcomeSchema) });

export const packagingIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** What may have been put right since a label was refused. */
export const labelChanges = ['address', 'weight'] as const;
export type LabelChange = (typeof labelChanges)[number];

/** One order on the labels page: where it goes, how, and its label as it stands. */
export const labelQueueEntrySchema = z.object({
  orderId: z.number().int(),
  orderNumber: z.string(),
  customerName: z.string(),
  postcode: z.string(),
  deliveryMethod: z.string(),
  /** The carrier service its method is sent by, in words; null when it has none. */
  service: z.string().nullable(),
  /** Why no label can be made for it now (no service, no weight, too heavy); null when one can. */
  blocked: z.string().nullable(),
  /** The parcel its label would be bought for: the units still to send and what they weigh; null when blocked. */
  parcel: z
    .object({
      /** Each line's units still to send: "Dhol (Large)". */
      contents: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
      /** With the empty weight of each preset box its units go in (parcels.ts). */
      weightGrams: z.number().int(),
    })
    .nullable(),
  label: z
    .object({
      status: z.enum(labelStatuses),
      trackingNumber: z.string().nullable(),
      message: z.string().nullable(),
      /**
       * A failed label's: what was changed after Click & Drop refused it, so the refusal may be out
       * of date: the delivery address (by staff, on the order's page), or what the parcel weighs
       * (the label was asked for another weight). Empty otherwise.
       */
      changedSince: z.array(z.enum(labelChanges)),
    })
    .nullable(),
});
export type LabelQueueEntry = z.infer<typeof labelQueueEntrySchema>;
export const labelQueueSchema = z.object({
  /** Labels can be bought: CLICK_AND_DROP_MODE is local or live. */
  enabled: z.boolean(),
  /** `local`: the sandbox, no postage is bought. */
  mode: z.enum(['off', 'local', 'live']),
  orders: z.array(labelQueueEntrySchema),
});
export type LabelQueue = z.infer<typeof labelQueueSchema>;

export const labelOrderIdParamsSchema = z.object({ orderId: z.coerce.number().int().min(1).max(2_147_483_647) });
/** GET /api/admin/labels.pdf?orders=3,1,2: the labels of these orders, in this order. */
export const labelPdfQuerySchema = z.object({
  orders: z
    .string({ error: 'Please choose the orders' })
    .regex(/^\d{1,10}(,\d{1,10}){0,99}$/, 'Please give at most 100 order ids, separated by commas')
    .transform((list) => list.split(',').map(Number))
    .refine((ids) => new Set(ids).size === ids.length, 'Each order once'),
});
