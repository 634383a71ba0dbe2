/**
 * The basket's rules both sides share, zod-free so that a page needing only these (the cart)
 * does not load the form schemas. See docs/rules.md#basket and docs/rules.md#vouchers.
 */

export const MAX_BASKET_LINES = 100;
export const MAX_LINE_QUANTITY = 9999;

/** docs/rules.md#basket: why a basket line cannot be bought as it stands. */
export const basketErrorCodes = {
  itemNotFound: 0,
  itemOutOfStock: 1,
  itemStockChange: 2,
  notEnoughStock: 3,
  invalidQuantity: 4,
} as const;

/** docs/rules.md#vouchers: the outcome of the last voucher attempt. */
export const voucherOutcomes = { applied: 1, invalid: 2, expired: 3, minimumSpend: 4 } as const;

/** UK postcodes, e.g. "B70 7NJ" or "sw1a1aa". */
export const UK_POSTCODE = /^[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}$/;
