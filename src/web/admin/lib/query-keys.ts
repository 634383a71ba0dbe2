/**
 * Query keys more than one back-office feature touches: the catalogue's products (their pages and
 * lists) change when the photos page uploads, orders or deletes a product's photos.
 */
export const catalogueProductsKey = ['admin', 'catalogue', 'products'] as const;
