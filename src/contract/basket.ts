import { z } from 'zod';
import { emailField, isOneLine, oneLineText, optionalText, phoneField, requiredText } from './fields.ts';
import { deliveryKinds } from './order-status.ts';
import {
  addressFieldLimits as address,
  guestFieldLimits as guest,
  MAX_BASKET_LINES,
  MAX_ID,
  UK_POSTCODE,
  VOUCHER_CODE_MAX,
} from './basket-rules.ts';
import { messages } from './messages.ts';

/**
 * Basket, checkout and order payloads (docs/rules.md#basket, docs/rules.md#checkout, docs/rules.md#orders-and-stock).
 * Prices, totals and stock a client sends are never used for pricing: the server prices every
 * basket from the database. Money is integer pence.
 */

const names = messages.fieldNames;
/** A name or address line is printed as one line of the order e-mails: no line breaks in it. */
const oneLine = messages.contact.oneLine;

/** A complete address: line 1, town or city, post code and country are required (docs/rules.md#basket). */
export const addressSchema = z.object({
  line1: oneLineText(messages.address.line1, address.line1, oneLine, names.line1),
  line2: optionalText(address.line2, names.line2).refine(isOneLine, oneLine),
  line3: optionalText(address.line3, names.line3).refine(isOneLine, oneLine),
  postcode: requiredText(messages.address.postcode, address.postcode, names.postcode).pipe(
    z.string().regex(UK_POSTCODE, messages.address.postcode),
  ),
  townCity: oneLineText(messages.address.townCity, address.townCity, oneLine, names.townCity),
  countryId: z
    .number({ error: messages.address.country })
    .int()
    .min(1, messages.address.country)
    .max(MAX_ID, messages.address.country),
  countryName: z.string().trim().max(address.countryName).optional().default(''),
});
export type Address = z.infer<typeof addressSchema>;

/** An address as a form holds it while the shopper types: anything may still be missing. */
export const addressDraftSchema = z.object({
  line1: z.string().max(address.line1).optional(),
  line2: z.string().max(address.line2).optional(),
  line3: z.string().max(address.line3).optional(),
  postcode: z.string().max(address.postcode).optional(),
  townCity: z.string().max(address.townCity).optional(),
  countryId: z.number().int().min(1).max(MAX_ID).nullable().optional(),
  countryName: z.string().max(address.countryName).optional(),
});
export type AddressDraft = z.infer<typeof addressDraftSchema>;

/** The Your Details block for a guest (docs/rules.md#checkout). */
export const guestSchema = z.object({
  titleId: z
    .number({ error: messages.address.title })
    .int()
    .min(1, messages.address.title)
    .max(MAX_ID, messages.address.title),
  firstname: oneLineText(messages.address.firstname, guest.firstname, oneLine, names.firstname),
  lastname: oneLineText(messages.address.lastname, guest.lastname, oneLine, names.lastname),
  email: emailField(messages.address.email),
  contactNumber: phoneField(messages.address.contactNumber, guest.contactNumber, names.contactNumber),
});
export type Guest = z.infer<typeof guestSchema>;

export const guestDraftSchema = z.object({
  titleId: z.number().int().min(1).max(MAX_ID).nullable().optional(),
  firstname: z.string().max(guest.firstname).optional(),
  lastname: z.string().max(guest.lastname).optional(),
  email: z.string().max(guest.email).optional(),
  contactNumber: z.string().max(guest.contactNumber).optional(),
});
export type GuestDraft = z.infer<typeof guestDraftSchema>;

export const basketItemInputSchema = z.object({
  productStockId: z.number().int().min(1).max(2_147_483_647),
  /** What the shopper typed; a missing or invalid quantity is answered with invalidQuantity. */
  requestedQty: z.number().finite().min(-1_000_000).max(1_000_000).nullable(),
  /** The stock the shopper last saw, to tell "stock changed" from "not enough". */
  availableStock: z.number().int().min(0).max(10_000_000).nullable().optional(),
  /** The price the shopper last saw: never charged, only compared at commit. */
  price: z.number().int().min(0).max(100_000_000).nullable().optional(),
});
export type BasketItemInput = z.infer<typeof basketItemInputSchema>;

const voucherCode = z.string().trim().max(VOUCHER_CODE_MAX, `at most ${VOUCHER_CODE_MAX} characters`);

/** POST /api/verify-basket body. Answer fields sent back (totals, titles) are ignored. */
export const basketRequestSchema = z.object({
  items: z.array(basketItemInputSchema).max(MAX_BASKET_LINES, `at most ${MAX_BASKET_LINES} lines`),
  guest: guestDraftSchema.nullable().optional(),
  billingAddress: addressDraftSchema.nullable().optional(),
  deliveryAddress: addressDraftSchema.nullable().optional(),
  deliveryMethodRateId: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
  voucherCodeAttempt: voucherCode.nullable().optional(),
  appliedVouchers: z
    .array(z.object({ code: voucherCode }))
    .max(1)
    .optional(),
  /**
   * The unpaid order this basket was restored from (after a failed payment). Committing replaces
   * it: that order is cancelled and its stock returned in the same transaction.
   */
  orderCode: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .nullable()
    .optional(),
  /**
   * The total the shopper last saw; compared at commit, never charged. The page sends it with every
   * check, so it takes any total a basket can be priced at (zod's int() keeps it a safe integer);
   * a commit over MAX_ORDER_TOTAL is refused on its own terms.
   */
  totalPriceIncludingDelivery: z.number().int().min(0).nullable().optional(),
});
export type BasketRequest = z.input<typeof basketRequestSchema>;
export type BasketQuery = z.output<typeof basketRequestSchema>;

/** POST /api/basket body: a basket with everything an order needs. */
export const basketCommitSchema = basketRequestSchema.extend({
  items: basketRequestSchema.shape.items.min(1, 'the basket is empty'),
  guest: guestSchema,
  billingAddress: addressSchema,
  deliveryAddress: addressSchema,
  deliveryMethodRateId: z
    .number({ error: messages.address.deliveryOption })
    .int()
    .min(1, messages.address.deliveryOption),
});
export type BasketCommit = z.output<typeof basketCommitSchema>;

/** A delivery method offered for a basket; `kind` says whether it is sent or collected from the shop. */
export const deliveryMethodRateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  rate: z.number().int(),
  kind: z.enum(deliveryKinds),
});
export type DeliveryMethodRate = z.infer<typeof deliveryMethodRateSchema>;
export const deliveryMethodRateListSchema = z.array(deliveryMethodRateSchema);

export const basketLineSchema = z.object({
  productStockId: z.number().int(),
  productId: z.number().int(),
  requestedQty: z.number().nullable(),
  availableStock: z.number().int(),
  hasError: z.boolean(),
  /** One of basketErrorCodes, or null when the line is fine. */
  errorCode: z.number().int().min(0).max(5).nullable(),
  title: z.string(),
  sizeName: z.string(),
  urlKey: z.string(),
  imageUrl: z.string(),
  price: z.number().int(),
  priceWithoutDiscount: z.number().int(),
  priceReduction: z.number().int(),
  lineTotal: z.number().int(),
  /** Made for the order: not returnable for a change of mind (docs/rules.md#returns). */
  madeToOrder: z.boolean().optional(),
});
export type BasketLine = z.infer<typeof basketLineSchema>;

const addressOut = addressDraftSchema.nullable();

/** The basket as the server priced it: the answer of verify-basket and of recovery. */
export const pricedBasketSchema = z.object({
  items: z.array(basketLineSchema),
  guest: guestDraftSchema.nullable(),
  billingAddress: addressOut,
  deliveryAddress: addressOut,
  deliveryMethodRates: deliveryMethodRateListSchema,
  deliveryMethodRateId: z.number().int().nullable(),
  deliveryPrice: z.number().int().nullable(),
  deliveryMethodName: z.string().nullable(),
  appliedVouchers: z.array(z.object({ code: z.string() })),
  lastVoucherOutcome: z.number().int().min(1).max(4).nullable(),
  itemCount: z.number().int(),
  itemsTotal: z.number().int(),
  discountAmount: z.number().int(),
  totalVat: z.number().int(),
  totalPriceExcludingDelivery: z.number().int(),
  totalPriceIncludingDelivery: z.number().int(),
  orderNumber: z.number().int().nullable(),
  orderCode: z.string().nullable(),
  /**
   * The number of the order this basket was restored from (its orderCode), when that order has
   * been paid since (through its recovery link, on another device): the basket is not to be bought
   * again as it is, and POST /api/basket refuses it (409 ORDER_ALREADY_PAID). Null otherwise.
   */
  paidOrderNumber: z.number().int().nullable(),
});
export type PricedBasket = z.infer<typeof pricedBasketSchema>;

export const commitResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), orderNumber: z.number().int(), orderCode: z.string() }),
  /** Something changed since the shopper last looked (stock, price, voucher): nothing was written. */
  z.object({ ok: z.literal(false), basket: pricedBasketSchema }),
]);
export type CommitResponse = z.infer<typeof commitResponseSchema>;

export const deliveryMethodsParams = z.object({
  countryId: z.coerce.number().int().min(1).max(2_147_483_647),
  itemsTotal: z.coerce.number().int().min(0).max(1_000_000_000),
});

export const orderCodeParams = z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not an order code') });
