/**
 * Every message a shopper reads, worded as the shop's original message catalogue words it, with its
 * spelling mistakes fixed (docs/rules.md#messages-shown-to-shoppers). Used by both the web app and the server.
 */
export const messages = {
  addToCart: {
    selectSize: 'Select Size',
    quantityRequired: 'Quantity Required',
    onlyInStock: (n: number) => `Only ${n} items in stock`,
    added: 'Added to Basket',
    productAdded: 'Product added to Basket!',
    /** A size with none left, in a size list, and a product card with nothing left at all. */
    soldOut: 'Sold out',
  },
  cart: {
    empty: 'Your Shopping Cart is empty',
    itemOutOfStock: 'This item is now out of stock, please check back in a few days.',
    itemStockChange: (n: number) => `There are now ${n} in stock`,
    notEnoughStock: (n: number) => `There are only ${n} in stock. Please change quantity.`,
    invalidQuantity: 'Please specify a valid quantity.',
    itemUnavailable: 'This item is no longer available. Please remove it from your basket.',
    /** In place of a line's total while the line is in error, as the summary leaves it out. */
    notCounted: 'Not included in the total',
  },
  /** The basket changed behind the page the shopper is looking at (web/ui/basket-notice; issue 32). */
  basketNotice: {
    changedElsewhere: 'Your basket was changed in another window, so we have checked it again.',
    quantity: (line: string, before: number, after: number) => `${line}: quantity ${after}, was ${before}`,
    added: (line: string, quantity: number) => `${line}: added, quantity ${quantity}`,
    removed: (line: string) => `${line}: removed`,
    /** A line whose product details have not been looked up. */
    unknownLine: 'An item',
    orderPaid: (orderNumber: number | null) =>
      `${orderNumber === null ? 'The order this basket came back from' : `Order ${orderNumber}`} has already been paid, so we have emptied the basket kept for it rather than take payment twice. There is nothing more to pay for it.`,
  },
  address: {
    title: 'Please select your Title',
    firstname: 'Please provide your First Name',
    lastname: 'Please provide your Last Name',
    email: 'Please provide your Email Address',
    contactNumber: 'Please provide your Contact Number',
    line1: 'Please provide your Address Line 1',
    line2: 'Please provide your Address Line 2',
    postcode: 'Please provide your Post Code',
    townCity: 'Please provide your Town / City',
    country: 'Please select your Country',
    deliveryOption: 'Please select a Delivery Option',
  },
  /**
   * Fields as a message names them, e.g. "First name: at most 50 characters" (fields.ts `tooLong`;
   * issue 32 words it so). The spec's own messages ("Please provide your First Name") are kept as
   * they are.
   */
  fieldNames: {
    firstname: 'First name',
    lastname: 'Last name',
    email: 'Email address',
    contactNumber: 'Contact number',
    line1: 'Address line 1',
    line2: 'Address line 2',
    line3: 'Address line 3',
    postcode: 'Post code',
    townCity: 'Town / city',
    name: 'Name',
    message: 'Message',
    password: 'Password',
    confirm: 'Confirm password',
  },
  voucher: {
    1: 'Voucher applied!',
    2: 'Voucher is invalid',
    3: 'Voucher has expired',
    4: 'This voucher has a minimum spend',
  } as Record<number, string>,
  /** One voucher per basket: a new one that applies replaces the one before, and says so. */
  voucherReplaced: (now: string, before: string) => `Voucher applied! ${now} now applies in place of ${before}.`,
  login: {
    failed: 'Login failed, please check credentials and try again.',
    /** Only after the right password, so it tells nothing about which addresses exist. */
    notActivated:
      'Your account is not yet activated. Please open the link in the e-mail we sent when you registered, or ask for a new one.',
    resend: 'SEND A NEW ACTIVATION LINK',
    resent: 'We have sent you a new activation link. Please check your e-mail; earlier links no longer work.',
    email: 'Please provide your email address',
    password: 'Please provide your password',
  },
  registration: {
    1: 'Missing details, please ensure you have completed all fields.',
    2: 'Invalid password, please provide a stronger password.',
    3: 'Password confirmation failed, please re-enter and confirm your password.',
    // Code 4 is no longer answered: it told anyone that an address has an account. A known
    // address is answered as a new one and its owner e-mailed (docs/rules.md#accounts-and-sessions).
    4: 'Email already in use, please check if you have already registered.',
    complete:
      'Please check your e-mail. We have sent a message to the address you gave: open the link in it to verify your address before you log in. If you have registered with that address before, the message tells you how to sign in instead.',
    other: 'Registration error, please try again.',
    title: 'Please select your Title',
    email: 'Please provide your Email Address',
    firstname: 'Please provide your First Name',
    lastname: 'Please provide your Last Name',
    password: 'Please enter a Password',
    confirm: 'Please confirm your Password',
  },
  contact: {
    email: 'Please provide your Email Address',
    emailFormat: 'Please provide a valid Email Address',
    name: 'Please provide your Name',
    phone: 'Please provide a contact number',
    phoneFormat: 'Please provide a valid contact number',
    message: 'Please provide a Message',
    /** A name or number with a line break in it (the form's single-line fields cannot hold one). */
    oneLine: 'Please write this on one line',
  },
  checkout: {
    /** Your Details, to a shopper who is not signed in: the way to the checkout's sign-in. */
    registered: 'Already registered?',
    signIn: 'Sign in to use your saved details',
  },
  payment: {
    failed: 'Something went wrong. Please ensure your card is valid and try again.',
    /**
     * The shopper's own Cancel at PayPal or Opayo. The spec words it 'Sorry but your Payment was
     * declined...' (PayPal's return) or as a card failure (Opayo's): both misread a deliberate choice
     * (docs/decisions/0003-storefront-choices.md).
     */
    cancelled:
      'You cancelled the payment, so nothing has been taken. Your basket has been kept: you can check out again whenever you are ready.',
  },
  notFound: 'OOPS! NOTHING WAS FOUND',
} as const;
