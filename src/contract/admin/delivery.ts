import { z } from 'zod';
import { MAX_DELIVERY_RATE, MAX_ORDER_TOTAL } from '../basket-rules.ts';
import { deliveryKinds } from '../order-status.ts';
import { carrierServiceKeys, packageFormatKeys } from './shipping.ts';

/** The carrier service a method's orders are sent by, for their labels (docs/back-office.md#shipping-labels). */
export const methodLabelsSchema = z.object({
  service: z.enum(carrierServiceKeys, { error: 'Please choose a carrier service' }),
  packageFormat: z.enum(packageFormatKeys, { error: 'Please choose a package format' }),
});
export type MethodLabels = z.infer<typeof methodLabelsSchema>;

/**
 * Delivery in the back office (docs/back-office.md#delivery): the countries served and, per
 * country, its methods with their rates in pence and the items totals they apply between.
 */

const pence = (message: string) =>
  z.number({ error: message }).int('Please enter whole pence').min(0, 'The amount cannot be below 0');

/** An items total a method starts or stops at: no order comes to more than MAX_ORDER_TOTAL. */
const itemsTotalBound = pence('Please enter whole pence')
  .max(MAX_ORDER_TOTAL, 'At most £1,000,000, the most one order may come to')
  .nullable();

/** A month: longer than any carrier the shop uses takes, short enough to catch a typing slip. */
export const MAX_TRANSIT_DAYS = 30;
const TRANSIT_DAYS = `Please enter whole days from 0 to ${MAX_TRANSIT_DAYS}`;

export const deliveryMethodInputSchema = z
  .object({
    countryId: z.number({ error: 'Please choose a country' }).int().min(1, 'Please choose a country'),
    name: z
      .string({ error: 'Please enter a name' })
      .trim()
      .min(1, 'Please enter a name')
      .max(100, 'At most 100 characters'),
    /** At most £10,000: a rate of 2^53 - 1 pence once priced a £90-trillion order. */
    rate: pence('Please enter the rate in pence').max(MAX_DELIVERY_RATE, 'The rate must be at most £10,000'),
    /** Applies when minItemsTotal <= items total < maxItemsTotal; null leaves a side open. */
    minItemsTotal: itemsTotalBound,
    maxItemsTotal: itemsTotalBound,
    active: z.boolean(),
    /** Sent to the customer, or collected by them from the shop (its orders are made ready for collection). */
    kind: z.enum(deliveryKinds, { error: 'Please choose delivery or collection' }).default('delivery'),
    /**
     * Days a parcel takes to arrive: a return's window starts this long after dispatch when the
     * delivery was not recorded (docs/rules.md#returns). Left out: 3 for a new method (migration
     * 0032's default), unchanged on an edit.
     */
    transitDays: z
      .number({ error: TRANSIT_DAYS })
      .int(TRANSIT_DAYS)
      .min(0, TRANSIT_DAYS)
      .max(MAX_TRANSIT_DAYS, TRANSIT_DAYS)
      .optional(),
    /** Its carrier service and package format; null: no labels are made for it. Left out: unchanged (none for a new one). */
    labels: methodLabelsSchema.nullable().optional(),
  })
  .superRefine((method, ctx) => {
    if (
      method.minItemsTotal !== null &&
      method.maxItemsTotal !== null &&
      method.maxItemsTotal <= method.minItemsTotal
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxItemsTotal'],
        message: 'The upper bound must be above the lower bound',
      });
    }
  });
export type DeliveryMethodInput = z.input<typeof deliveryMethodInputSchema>;

export const deliveryMethodSchema = z.object({
  id: z.number().int(),
  countryId: z.number().int(),
  name: z.string(),
  rate: z.number().int(),
  minItemsTotal: z.number().int().nullable(),
  maxItemsTotal: z.number().int().nullable(),
  sortOrder: z.number().int(),
  active: z.boolean(),
  kind: z.enum(deliveryKinds),
  transitDays: z.number().int(),
  labels: methodLabelsSchema.nullable(),
});
export type DeliveryMethod = z.infer<typeof deliveryMethodSchema>;
export const deliveryMethodListSchema = z.array(deliveryMethodSchema);

export const servedCountrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  isoCode: z.string(),
});

export const deliverySetupSchema = z.object({
  countries: z.array(servedCountrySchema),
  methods: z.array(deliveryMethodSchema),
});
export type DeliverySetup = z.infer<typeof deliverySetupSchema>;

export const deliveryMethodIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
export const countryIdParamsSchema = deliveryMethodIdParamsSchema;

/** A country's methods in their new order: every one of its methods, once. */
export const deliveryMethodOrderSchema = z.object({
  countryId: z.number().int().min(1),
  methodIds: z.array(z.number().int().min(1)).min(1).max(100),
});
export type DeliveryMethodOrderInput = z.input<typeof deliveryMethodOrderSchema>;

export const countryInputSchema = z.object({
  name: z
    .string({ error: 'Please enter the country’s name' })
    .trim()
    .min(1, 'Please enter the country’s name')
    .max(100, 'At most 100 characters'),
  isoCode: z
    .string({ error: 'Please enter its two-letter ISO code' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Please enter its two-letter ISO code, such as IE')
    .transform((code) => code.toUpperCase()),
});
export type CountryInput = z.input<typeof countryInputSchema>;
