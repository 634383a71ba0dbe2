/**
 * What the product page and the checkout's review lines say of a made-to-order product
 * (docs/rules.md#returns); zod-free, so a storefront page takes it cheaply.
 */
export const MADE_TO_ORDER_NOTE = 'Made to order: cannot be returned if you change your mind';
