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

/**
 * The pages the server renders whole (docs/decisions/0021-server-rendering.md): what every shopper
 * sees alike, from the catalogue and the shop's own words. A basket, a checkout or an account is in
 * the shopper's browser, so those pages are drawn there, as is the back office. The search page is
 * drawn in the browser for now: hydrated on a phone, its results moved (Lighthouse measured a
 * layout shift of 0.6), which is not explained yet.
 */
const serverRenderedPatterns: RegExp[] = [
  /^\/home$/,
  /^\/products\/details\/[^/]+$/,
  /^\/products\/[^/]+$/,
  /^\/product\/[^/]+$/,
  /^\/about$/,
  /^\/contact$/,
  /^\/termsandconditions$/,
];

/** Whether the server renders this page path; any path that is no page (a 404) is rendered too. */
export function isServerRendered(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return serverRenderedPatterns.some((pattern) => pattern.test(path)) || !isPageRoute(pathname);
}
