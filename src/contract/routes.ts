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

/** The pages that depend on what is in the shopper's browser (the layout draws them with ShopperPage). */
const shopperPagePatterns: RegExp[] = [
  /^\/shoppingcart$/,
  /^\/shopping-cart$/,
  /^\/checkout(?:-details|-delivery|-review|-confirm)?$/,
  /^\/order-recovery\/[^/]+$/,
  /^\/payment-(?:success|declined)$/,
  /^\/login$/,
  /^\/register$/,
  /^\/forgotpassword$/,
  /^\/reset-password\/[^/]+$/,
  /^\/verify-account\/[^/]+$/,
  /^\/account-home$/,
];

/** A page of the shopper's own: no shared cache keeps it (its address may carry what is theirs). */
export function isShopperPage(pathname: string): boolean {
  const path = routeShape(pathname);
  return shopperPagePatterns.some((pattern) => pattern.test(path));
}

/**
 * Pages whose address carries a secret (a reset or activation token, an order's recovery code, the
 * back office's set-password token, valid 72 hours).
 */
const secretAddressPatterns: RegExp[] = [
  /^\/reset-password\/[^/]+$/,
  /^\/verify-account\/[^/]+$/,
  /^\/order-recovery\/[^/]+$/,
  /^\/admin\/set-password\/[^/]+$/,
];

/** A page whose address is a secret, which no cache may keep or key by (an outside attack found them public). */
export function isSecretAddress(pathname: string): boolean {
  const path = routeShape(pathname);
  return secretAddressPatterns.some((pattern) => pattern.test(path));
}

export function isPageRoute(pathname: string): boolean {
  const path = routeShape(pathname);
  return pageRoutePatterns.some((pattern) => pattern.test(path));
}

/**
 * The pages the server renders (docs/decisions/0021-server-rendering.md): every page, the bare
 * address as /home (the home page's, page-head.ts). What every shopper sees alike (home, search, products,
 * about, contact, terms) is drawn whole; a page that depends on the shopper's browser (the basket,
 * checkout, account, sign-in, payment results) is drawn as the shop around its loading state, and
 * the browser draws the page itself (`ShopperPage` in src/web/app/layout/layout.tsx). The back office is drawn in
 * the browser.
 */
const serverRenderedPatterns: RegExp[] = pageRoutePatterns.filter((pattern) => !pattern.test('/'));

/** Where every path that is no page is drawn: the 404 page is the same whatever the path. */
export const NOT_FOUND_LOCATION = '/page-not-found';

/** What of a query string the search page reads (src/contract/search-filters.ts): keyword, types, brands, order. */
const searchAddressParams = ['k', 't', 'b', 's'];

/**
 * A page's address as far as the server's answer depends on it: its path without trailing slashes
 * (as the router takes it), and for the search page the filters in its query. No other page reads
 * the query string, and the search page reads nothing else of it, so `?gclid=…` and the like make
 * no new page.
 */
export function pageAddress(pathname: string, query: URLSearchParams): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path !== '/search') return path;
  const filters = new URLSearchParams([...query].filter(([name]) => searchAddressParams.includes(name)));
  return filters.size > 0 ? `${path}?${filters}` : path;
}

/**
 * Where the server draws this page from: its address (pageAddress); the 404 page's place for a
 * path that is no page; or undefined when the browser draws it (a page that depends on the shopper,
 * or a known page the server does not answer 200, such as a product that does not exist, which the
 * browser sends on to the search page).
 */
export function serverRenderedLocation(
  pathname: string,
  status: number,
  query: URLSearchParams = new URLSearchParams(),
): string | undefined {
  if (!isPageRoute(pathname)) return NOT_FOUND_LOCATION;
  if (status !== 200) return undefined;
  // As the server reads it for the page's head and data (case and all): a page asked for in
  // another case has neither, so the browser draws it, as it always did.
  const address = pageAddress(pathname, query);
  const path = address.split('?')[0] ?? address;
  // The bare address is the home page (page-head.ts), drawn as the browser will hydrate it, at /home (main.tsx).
  if (path === '/') return '/home';
  if (!serverRenderedPatterns.some((pattern) => pattern.test(path))) return undefined;
  // Its shell is the same whatever the token: drawn, and remembered, without it.
  return isSecretAddress(path) ? path.replace(/[^/]+$/, 'token') : address;
}

/**
 * A page the browser draws that the server answers 404 (a product that does not exist, which the
 * app sends on to the search page, as the spec says): a browser without scripts would be left with
 * an empty page, so the server draws the 404 page for it as well, inside a `<noscript>`, which a
 * browser running the app never draws (issue 32). Undefined for every other page.
 */
export function noScriptLocation(pathname: string, status: number): string | undefined {
  return status === 404 && isPageRoute(pathname) ? NOT_FOUND_LOCATION : undefined;
}
