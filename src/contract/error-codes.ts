/**
 * The error codes of the API's error answers, and the refusals' messages the shop words itself,
 * zod-free so that a page can name them without loading the schemas (docs/rules.md#api-answers-and-errors). The
 * answer's shape is in errors.ts.
 */

export const errorCodes = {
  validation: 'VALIDATION_FAILED',
  notFound: 'NOT_FOUND',
  badJson: 'MALFORMED_JSON',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  tooManyUnpaidOrders: 'TOO_MANY_UNPAID_ORDERS',
  unpaidOrderTooLarge: 'UNPAID_ORDER_TOO_LARGE',
  orderTotalTooLarge: 'ORDER_TOTAL_TOO_LARGE',
  nothingToPay: 'NOTHING_TO_PAY',
  orderHeldTooLong: 'ORDER_HELD_TOO_LONG',
  /** A basket restored from an order (after a declined card) whose order has been paid since. */
  orderAlreadyPaid: 'ORDER_ALREADY_PAID',
  csrf: 'CSRF_TOKEN_MISSING_OR_WRONG',
  unauthorized: 'NOT_SIGNED_IN',
  /** The right password for an account whose e-mail address is not yet confirmed. */
  notActivated: 'ACCOUNT_NOT_ACTIVATED',
  forbidden: 'FORBIDDEN',
  conflict: 'CONFLICT',
  /** Erasure refused: an order still needs the customer's name and address to be fulfilled. */
  customerHasLiveOrders: 'CUSTOMER_HAS_LIVE_ORDERS',
  httpsRequired: 'HTTPS_REQUIRED',
  /** The search index is still being built at start-up, past the wait a search allows it (ADR 0026). */
  searchNotReady: 'SEARCH_NOT_READY',
  /** The shipping carrier (Click & Drop) refused a call or did not answer; its words are in the message. */
  carrier: 'CARRIER_ERROR',
  internal: 'INTERNAL_ERROR',
} as const;

/** Messages for refusals the spec does not name, shown to the shopper as the server words them. */
export const refusalMessages = {
  tooManyUnpaidOrders:
    'You already have orders waiting for payment. Please pay for one of them, or wait for it to lapse, before placing another.',
  unpaidOrderTooLarge:
    'This order holds more items than we can keep for you before payment. Please order fewer, or contact us to arrange a larger order.',
  orderHeldTooLong: 'We have held this order for as long as we can without payment. Please place your order again.',
  orderAlreadyPaid:
    'The order this basket came back from has already been paid, so we have not placed it again. There is nothing more to pay for it.',
  orderTotalTooLarge:
    'This order comes to more than £1,000,000, more than we can take online. Please order fewer items, or contact us to arrange a larger order.',
  nothingToPay:
    'This order comes to £0.00, and an order needs something to pay before we can place it. Please choose a paid delivery option or add to your basket, or contact us.',
  tooManyAttempts: 'Too many attempts from your connection. Please wait a minute and try again.',
  /** A limit's refusal, saying when to try again from the answer's Retry-After. */
  tryAgainIn: (seconds: number): string =>
    `Too many attempts from your connection. Please try again in ${
      seconds <= 60
        ? `${seconds} second${seconds === 1 ? '' : 's'}`
        : // A day's limit (the contact form's) reads in hours, not in a thousand minutes.
          seconds <= 2 * 3_600
          ? `${Math.ceil(seconds / 60)} minutes`
          : `${Math.ceil(seconds / 3_600)} hours`
    }.`,
} as const;
