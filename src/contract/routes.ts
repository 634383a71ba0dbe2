/**
 * The shop's page routes (docs/rules.md#pages-and-routes). The server answers these with
 * the web app and a 200; any other page path gets the app with a 404 status, which shows the 404 page.
 */
export const pageRoutePatterns: RegExp[] = [
  /^\/$/,
  /^\/home$/,
  /^\/search$/,
  /^\/products\/details\/[^/]+$/,
  /^\/products\/[^/]+$/,
  /^\/product\/[^/]+$/,
  /^\/shoppingcart$/,
  /^\/shopping-cart$/,
  /^\/checkout$/,
  /^\/checkout-details$/,
  /^\/checkout-delivery$/,
  /^\/checkout-review$/,
  /^\/checkout-confirm$/,
  /^\/order-recovery\/[^/]+$/,
  /^\/login$/,
  /^\/register$/,
  /^\/forgotpassword$/,
  /^\/reset-password\/[^/]+$/,
  /^\/account-home$/,
  /^\/payment-success$/,
  /^\/payment-declined$/,
  /^\/verify-account\/[^/]+$/,
  /^\/about$/,
  /^\/contact$/,
  /^\/termsandconditions$/,
];

export function isPageRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return pageRoutePatterns.some((pattern) => pattern.test(path));
}
