import { z } from 'zod';

/**
 * The parts of Royal Mail Click & Drop's API the shop uses, named as its published document names
 * them (test/fixtures/click-and-drop/click-and-drop-api-v1.yaml, with where it came from). The
 * client (client.ts) writes and reads these; the local sandbox (sandbox.routes.ts) checks and
 * answers them. Money is pounds as a decimal number there; the shop's pence are turned at the edge.
 */

const text = (max: number) => z.string().max(max);

export const addressRequestSchema = z.object({
  fullName: text(210).optional(),
  companyName: text(100).optional(),
  addressLine1: text(100),
  addressLine2: text(100).optional(),
  addressLine3: text(100).optional(),
  city: text(100),
  county: text(100).optional(),
  postcode: text(20).optional(),
  countryCode: text(3),
});

export const packageFormatIdentifiers = [
  'undefined',
  'letter',
  'largeLetter',
  'smallParcel',
  'mediumParcel',
  'parcel',
  'documents',
  'custom',
] as const;

export const productItemRequestSchema = z.object({
  name: text(800).optional(),
  SKU: text(100).optional(),
  quantity: z.number().int().min(1).max(999_999),
  unitValue: z.number().min(0).max(999_999),
  unitWeightInGrams: z.number().min(0).max(999_999),
});

export const shipmentPackageRequestSchema = z.object({
  weightInGrams: z.number().int().min(1).max(30_000),
  packageFormatIdentifier: z.enum(packageFormatIdentifiers),
  dimensions: z
    .object({
      heightInMms: z.number().int().min(1),
      widthInMms: z.number().int().min(1),
      depthInMms: z.number().int().min(1),
    })
    .optional(),
  contents: z.array(productItemRequestSchema).optional(),
});

export const createOrderRequestSchema = z.object({
  orderReference: text(40).optional(),
  recipient: z.object({
    address: addressRequestSchema,
    phoneNumber: text(25).optional(),
    emailAddress: text(254).optional(),
    addressBookReference: text(100).optional(),
  }),
  packages: z.array(shipmentPackageRequestSchema).optional(),
  orderDate: z.iso.datetime({ offset: true }),
  subtotal: z.number(),
  shippingCostCharged: z.number(),
  total: z.number(),
  currencyCode: text(3).optional(),
  postageDetails: z
    .object({
      sendNotificationsTo: z.enum(['sender', 'recipient', 'billing']).optional(),
      serviceCode: text(10).optional(),
      receiveEmailNotification: z.boolean().optional(),
    })
    .optional(),
});
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

/** Click & Drop takes up to 100 orders in one call (docs/decisions/0028-click-and-drop-unclear-points.md). */
export const MAX_ORDERS_PER_CALL = 100;
export const createOrdersRequestSchema = z.object({
  items: z.array(createOrderRequestSchema).min(1).max(MAX_ORDERS_PER_CALL),
});
export type CreateOrdersRequest = z.infer<typeof createOrdersRequestSchema>;

export const createOrderResponseSchema = z.object({
  orderIdentifier: z.number().int(),
  orderReference: z.string().optional(),
  createdOn: z.string(),
  orderDate: z.string().optional(),
  printedOn: z.string().optional(),
  trackingNumber: z.string().optional(),
});

export const createOrderErrorResponseSchema = z.object({
  errorCode: z.number().int().optional(),
  errorMessage: z.string().optional(),
  fields: z.array(z.object({ fieldName: z.string().optional(), value: z.string().optional() })).optional(),
});

export const createOrdersResponseSchema = z.object({
  successCount: z.number().int().optional(),
  errorsCount: z.number().int().optional(),
  createdOrders: z.array(createOrderResponseSchema).optional(),
  failedOrders: z
    .array(
      z.object({
        order: z.object({ orderReference: z.string().optional() }).loose().optional(),
        errors: z.array(createOrderErrorResponseSchema).optional(),
      }),
    )
    .optional(),
});
export type CreateOrdersResponse = z.infer<typeof createOrdersResponseSchema>;

export const getOrderInfoResourceSchema = z.object({
  orderIdentifier: z.number().int(),
  orderReference: z.string().optional(),
  createdOn: z.string(),
  orderDate: z.string().optional(),
  printedOn: z.string().optional(),
  manifestedOn: z.string().optional(),
  shippedOn: z.string().optional(),
  trackingNumber: z.string().optional(),
});
export const getOrdersResponseSchema = z.array(getOrderInfoResourceSchema);

export const deleteOrdersResourceSchema = z.object({
  deletedOrders: z
    .array(z.object({ orderIdentifier: z.number().int(), orderReference: z.string().optional() }))
    .optional(),
  errors: z
    .array(
      z.object({
        orderIdentifier: z.number().int().optional(),
        orderReference: z.string().optional(),
        code: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});

export const errorResponseSchema = z.object({ code: z.string(), message: z.string(), details: z.string().optional() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * The path's `{orderIdentifiers}`: identifiers (integers) and references (each percent-encoded in
 * double quotes), separated by semicolons.
 */
export function orderIdentifiersOf(which: ReadonlyArray<number | { reference: string }>): string {
  return which
    .map((one) => (typeof one === 'number' ? String(one) : encodeURIComponent(`"${one.reference}"`)))
    .join(';');
}
