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

/**
 * A path as the app's router matches it: without trailing slashes, decoded, and in any case (React
 * Router ignores case), so the server and the browser agree on which page an address is.
 */
function routeShape(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  try {
    return decodeURI(path).toLowerCase();
  } catch {
    return path.toLowerCase();
  }
}

export function isPageRoute(pathname: string): boolean {
  const path = routeShape(pathname);
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

/** Where every path that is no page is drawn: the 404 page is the same whatever the path. */
const NOT_FOUND_LOCATION = '/page-not-found';

/**
 * Where the server draws this page path from (its path: none of these pages reads the query
 * string), the 404 page's place for a path that is no page, or undefined when the browser draws it
 * (a page that depends on the shopper, or a known page the server does not answer 200, such as
 * a product that does not exist, which the browser sends on to the search page).
 */
export function serverRenderedLocation(pathname: string, status: number): string | undefined {
  if (!isPageRoute(pathname)) return NOT_FOUND_LOCATION;
  if (status !== 200) return undefined;
  // As the server reads it for the page's head and data (case and all): a page asked for in
  // another case has neither, so the browser draws it, as it always did.
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return serverRenderedPatterns.some((pattern) => pattern.test(path)) ? path : undefined;
}
