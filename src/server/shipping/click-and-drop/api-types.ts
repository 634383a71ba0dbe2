import { z } from 'zod';

/**
 * The parts of Royal Mail Click & Drop's API the shop uses, named as its published document names
 * them (test/fixtures/click-and-drop/click-and-drop-api-v1.yaml, with where it came from). The
 * client (client.ts) writes and reads these; the local sandbox (sandbox.routes.ts) checks and
 * answers them. Money is pounds as a decimal number there; the shop's pence are turned at the edge.
 *
 * The calls, as the document gives them (all under https://api.parcel.royalmail.com/api/v1):
 * - POST /orders: CreateOrdersRequest -> 200 CreateOrdersResponse | 400 ErrorResponse
 * - GET /orders/{orderIdentifiers}: 200 GetOrderInfoResource[] | 400 OrderErrorResponse[] | 404
 * - DELETE /orders/{orderIdentifiers}: 200 DeleteOrdersResource | 400 OrderErrorInfo[] | 403 | 404
 * - GET /orders/{orderIdentifiers}/label?documentType=postageLabel&includeReturnsLabel=false:
 *   200 application/pdf | 400 OrderErrorResponse[] | 403 (not an OBA account) | 404
 * 401 and 404 have no body in the document, nor has the 429 of its "Rate Limits" note
 * (docs/decisions/0028-click-and-drop-unclear-points.md says what the shop assumes).
 */

/** Its security definition: an API key in `Authorization`, "using the Bearer scheme". */
export const authorizationOf = (apiKey: string) => `Bearer ${apiKey}`;

/** "Exceeding the rate limit of 5 calls per second will result in a 429 error." */
export const CALLS_PER_SECOND = 5;

/** "The maximum number of identifiers is 100" in one `{orderIdentifiers}`. */
export const MAX_ORDER_IDENTIFIERS = 100;

const text = (max: number) => z.string().max(max);

/**
 * The document's money: `type: number, format: decimal, multipleOf: 0.01, minimum: 0, maximum: 999999`.
 * Whole pennies are read from the number as JSON writes it (64.95), not by arithmetic on a binary fraction.
 */
const pounds = z
  .number()
  .min(0)
  .max(999_999)
  .refine((value) => /^\d+(\.\d{1,2})?$/.test(String(value)), 'must be a multiple of 0.01');

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

/**
 * The document types `packageFormatIdentifier` as any string and lists these in its description
 * (a ChannelShipper account may also name its own formats, which the shop has not).
 */
export const packageFormatIdentifiers = [
  'undefined',
  'letter',
  'largeLetter',
  'smallParcel',
  'mediumParcel',
  'largeParcel',
  'parcel',
  'documents',
] as const;

export const productItemRequestSchema = z.object({
  name: text(800).optional(),
  SKU: text(100).optional(),
  quantity: z.number().int().min(1).max(999_999),
  unitValue: pounds.optional(),
  unitWeightInGrams: z.number().int().min(0).max(999_999).optional(),
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
  subtotal: pounds,
  shippingCostCharged: pounds,
  total: pounds,
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

export const createPackagesResponseSchema = z.object({
  packageNumber: z.number().int().optional(),
  trackingNumber: z.string().optional(),
});

export const createOrderResponseSchema = z.object({
  orderIdentifier: z.number().int(),
  orderReference: z.string().optional(),
  createdOn: z.string(),
  orderDate: z.string().optional(),
  printedOn: z.string().optional(),
  manifestedOn: z.string().optional(),
  shippedOn: z.string().optional(),
  trackingNumber: z.string().optional(),
  packages: z.array(createPackagesResponseSchema).optional(),
});
export type CreateOrderResponse = z.infer<typeof createOrderResponseSchema>;

export const orderFieldResponseSchema = z.object({ fieldName: z.string().optional(), value: z.string().optional() });

export const createOrderErrorResponseSchema = z.object({
  errorCode: z.number().int().optional(),
  errorMessage: z.string().optional(),
  fields: z.array(orderFieldResponseSchema).optional(),
});
export type CreateOrderErrorResponse = z.infer<typeof createOrderErrorResponseSchema>;

/** A refused order: the request as sent (its `orderReference` tells which), and why. */
export const failedOrderResponseSchema = z.object({
  order: z.object({ orderReference: z.string().optional() }).loose().optional(),
  errors: z.array(createOrderErrorResponseSchema).optional(),
});
export type FailedOrderResponse = z.infer<typeof failedOrderResponseSchema>;

export const createOrdersResponseSchema = z.object({
  successCount: z.number().int().optional(),
  errorsCount: z.number().int().optional(),
  createdOrders: z.array(createOrderResponseSchema).optional(),
  failedOrders: z.array(failedOrderResponseSchema).optional(),
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
  packages: z.array(createPackagesResponseSchema).optional(),
});
export type GetOrderInfoResource = z.infer<typeof getOrderInfoResourceSchema>;

/**
 * GET /orders/{orderIdentifiers}'s 200: an array of GetOrderInfoResource, unnamed in the document
 * (its `GetOrdersResponse` is the paged list of GET /orders, which the shop does not call).
 */
export const getSpecificOrdersResponseSchema = z.array(getOrderInfoResourceSchema);
/** The name client.ts reads it by; the same schema as getSpecificOrdersResponseSchema. */
export const getOrdersResponseSchema = getSpecificOrdersResponseSchema;

export const deletedOrderInfoSchema = z.object({
  orderIdentifier: z.number().int().optional(),
  orderReference: z.string().optional(),
  orderInfo: z.string().optional(),
});

/** An order that one call could not act on (DELETE's `errors`, and its 400 as an array). */
export const orderErrorInfoSchema = z.object({
  orderIdentifier: z.number().int().optional(),
  orderReference: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type OrderErrorInfo = z.infer<typeof orderErrorInfoSchema>;

export const deleteOrdersResourceSchema = z.object({
  deletedOrders: z.array(deletedOrderInfoSchema).optional(),
  errors: z.array(orderErrorInfoSchema).optional(),
});
export type DeleteOrdersResource = z.infer<typeof deleteOrdersResourceSchema>;

/** The 400 of GET /orders/{orderIdentifiers} and of its /label, as an array. */
export const orderErrorResponseSchema = z.object({
  accountOrderNumber: z.number().int().optional(),
  channelOrderReference: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type OrderErrorResponse = z.infer<typeof orderErrorResponseSchema>;

/** POST /orders' 400, every 500, and (assumed, ADR 0028) the sandbox's 401, 404 and 429. */
export const errorResponseSchema = z.object({
  code: z.string().optional(),
  message: z.string(),
  details: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The label call's query: `includeReturnsLabel` is "required when documentType is set to 'postageLabel'". */
export const labelQuerySchema = z
  .object({
    documentType: z.enum(['postageLabel', 'despatchNote', 'CN22', 'CN23']),
    includeReturnsLabel: z.enum(['true', 'false']).optional(),
    includeCN: z.enum(['true', 'false']).optional(),
  })
  .refine((query) => query.documentType !== 'postageLabel' || query.includeReturnsLabel !== undefined, {
    path: ['includeReturnsLabel'],
    message: "is required when documentType is 'postageLabel'",
  });
export type LabelQuery = z.infer<typeof labelQuerySchema>;

/**
 * The path's `{orderIdentifiers}`: identifiers (integers) and references (each percent-encoded in
 * double quotes), separated by semicolons.
 */
export function orderIdentifiersOf(which: ReadonlyArray<number | { reference: string }>): string {
  return which
    .map((one) => (typeof one === 'number' ? String(one) : encodeURIComponent(`"${one.reference}"`)))
    .join(';');
}
