/**
 * The basket's rules both sides share, zod-free so that a page needing only these (the cart)
 * does not load the form schemas. See docs/rules.md#basket and docs/rules.md#vouchers.
 */

export const MAX_BASKET_LINES = 100;
export const MAX_LINE_QUANTITY = 9999;

/**
 * Money bounds, in pence (docs/rules.md#prices-and-money). No order may come to more than
 * £1,000,000: far above any basket of instruments, and every total below it is an exact integer
 * that fits the database's integer columns (PostgreSQL's are 32-bit) and the providers' amounts. A
 * delivery rate and a voucher's amount off are at most £10,000.
 */
export const MAX_ORDER_TOTAL = 100_000_000;
export const MAX_DELIVERY_RATE = 1_000_000;
export const MAX_VOUCHER_AMOUNT = 1_000_000;

/** docs/rules.md#basket: why a basket line cannot be bought as it stands. */
export const basketErrorCodes = {
  itemNotFound: 0,
  itemOutOfStock: 1,
  itemStockChange: 2,
  notEnoughStock: 3,
  invalidQuantity: 4,
  /** The product was archived in the back office: it is no longer sold (docs/back-office.md#catalogue). */
  itemUnavailable: 5,
} as const;

/** docs/rules.md#vouchers: the outcome of the last voucher attempt. */
export const voucherOutcomes = { applied: 1, invalid: 2, expired: 3, minimumSpend: 4 } as const;

/** UK postcodes, e.g. "B70 7NJ" or "sw1a1aa". */
export const UK_POSTCODE = /^[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}$/;

/** How long each address and guest field may be, in the forms, the calls and a saved basket. */
export const addressFieldLimits = {
  line1: 100,
  line2: 100,
  line3: 100,
  postcode: 10,
  townCity: 60,
  countryName: 100,
} as const;
export const guestFieldLimits = { firstname: 50, lastname: 50, email: 254, contactNumber: 30 } as const;
export const VOUCHER_CODE_MAX = 40;
/** Order codes: 128 random bits, URL-safe (docs/rules.md#orders-and-stock). */
export const ORDER_CODE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const MAX_ID = 2_147_483_647;
