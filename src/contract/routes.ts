/**
 * The shop's page routes (docs/rules.md#pages-and-routes), in one table from which the web app's
 * router (src/web/app/router.tsx), the server's list of pages and the page modules it preloads
 * with their styles (src/server/http/route-preloads.ts) are all made. The server answers these with
 * the web app and a 200; any other page path gets the app with a 404 status, which shows the 404 page.
 */

/** Each page's module under src/web/: its own lazily loaded chunk. */
export const pageModules = {
  home: 'features/home/home-page.tsx',
  search: 'features/search/search-page.tsx',
  product: 'features/product/product-page.tsx',
  cart: 'features/cart/cart-page.tsx',
  checkoutSignIn: 'features/checkout/sign-in-page.tsx',
  checkoutDetails: 'features/checkout/details-page.tsx',
  checkoutDelivery: 'features/checkout/delivery-page.tsx',
  checkoutReview: 'features/checkout/review-page.tsx',
  checkoutConfirm: 'features/checkout/confirm-page.tsx',
  orderRecovery: 'features/checkout/recovery-page.tsx',
  paymentSuccess: 'features/payment-result/payment-success-page.tsx',
  paymentDeclined: 'features/payment-result/payment-declined-page.tsx',
  login: 'features/account/login-page.tsx',
  register: 'features/account/register-page.tsx',
  verifyAccount: 'features/account/verify-account-page.tsx',
  forgotPassword: 'features/account/forgot-password-page.tsx',
  resetPassword: 'features/account/reset-password-page.tsx',
  account: 'features/account/account-page.tsx',
  about: 'features/about/about-page.tsx',
  contact: 'features/contact/contact-page.tsx',
  terms: 'features/terms/terms-page.tsx',
  returns: 'features/terms/returns-page.tsx',
  orderPage: 'features/order-page/order-page.tsx',
  notFound: 'features/not-found/not-found-page.tsx',
} as const;

export type PageName = keyof typeof pageModules;

/**
 * Who a page is for. `public`: the same for every shopper, drawn whole on the server and kept by
 * caches. `shopper`: depends on what is in the shopper's browser (the layout draws it with
 * ShopperPage); no shared cache keeps it. `secret`: a shopper's page whose address carries a secret
 * (a reset or activation token, an order's recovery code, its order page's key), which no cache may
 * keep or key by.
 */
export type PageAccess = 'public' | 'shopper' | 'secret';

export interface PageRoute {
  /** As React Router writes it: `:name` is one path segment. */
  readonly path: string;
  readonly page: PageName;
  readonly access: PageAccess;
}

export const pageRoutes = [
  // The bare address is the home page, drawn as the browser will hydrate it, at /home (main.tsx).
  { path: '/', page: 'home', access: 'public' },
  { path: '/home', page: 'home', access: 'public' },
  { path: '/search', page: 'search', access: 'public' },
  { path: '/products/details/:key', page: 'product', access: 'public' },
  { path: '/products/:key', page: 'product', access: 'public' },
  { path: '/product/:key', page: 'product', access: 'public' },
  { path: '/shoppingcart', page: 'cart', access: 'shopper' },
  { path: '/shopping-cart', page: 'cart', access: 'shopper' },
  { path: '/checkout', page: 'checkoutSignIn', access: 'shopper' },
  { path: '/checkout-details', page: 'checkoutDetails', access: 'shopper' },
  { path: '/checkout-delivery', page: 'checkoutDelivery', access: 'shopper' },
  { path: '/checkout-review', page: 'checkoutReview', access: 'shopper' },
  { path: '/checkout-confirm', page: 'checkoutConfirm', access: 'shopper' },
  { path: '/order-recovery/:id', page: 'orderRecovery', access: 'secret' },
  { path: '/order/:key', page: 'orderPage', access: 'secret' },
  { path: '/payment-success', page: 'paymentSuccess', access: 'shopper' },
  { path: '/payment-declined', page: 'paymentDeclined', access: 'shopper' },
  { path: '/login', page: 'login', access: 'shopper' },
  { path: '/register', page: 'register', access: 'shopper' },
  { path: '/verify-account/:token', page: 'verifyAccount', access: 'secret' },
  { path: '/forgotpassword', page: 'forgotPassword', access: 'shopper' },
  { path: '/reset-password/:token', page: 'resetPassword', access: 'secret' },
  { path: '/account-home', page: 'account', access: 'shopper' },
  { path: '/about', page: 'about', access: 'public' },
  { path: '/contact', page: 'contact', access: 'public' },
  { path: '/termsandconditions', page: 'terms', access: 'public' },
  { path: '/returns', page: 'returns', access: 'public' },
] as const satisfies readonly PageRoute[];

/** The pages every shopper sees alike, each with a loader for the data it draws (page-loaders.ts). */
export type PublicPageName = Extract<(typeof pageRoutes)[number], { access: 'public' }>['page'];

/** Where every path that is no page is drawn: the 404 page is the same whatever the path. */
export const NOT_FOUND_LOCATION = '/page-not-found';

/** The back office's pages whose address is a secret (the set-password token, valid 72 hours). */
const backOfficeSecretPaths = ['/admin/set-password/:token'];

/** A route's path as a pattern for a path as routeShape gives it, each parameter a group. */
function patternOf(path: string): RegExp {
  const segments = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/** A route's parameters' names, in the order of the pattern's groups. */
function parameterNamesOf(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

const routePatterns = pageRoutes.map((route) => ({ ...route, pattern: patternOf(route.path) }));

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

/**
 * The route a path is exactly as written (case and all, not decoded), with each parameter as the
 * path writes it: how the server reads an address for its head and data (seo/page-head.ts). A page
 * asked for in another case gets neither, and the browser draws it (serverRenderedLocation).
 */
export function pageRouteAt(path: string): { route: PageRoute; params: Record<string, string> } | undefined {
  for (const { pattern, ...route } of routePatterns) {
    const match = pattern.exec(path);
    if (match) {
      const values = match.slice(1);
      return {
        route,
        params: Object.fromEntries(parameterNamesOf(route.path).map((name, i) => [name, values[i] ?? ''])),
      };
    }
  }
  return undefined;
}

/** The route a path is, if it is a page. */
export function pageRouteOf(pathname: string): PageRoute | undefined {
  const path = routeShape(pathname);
  return routePatterns.find((route) => route.pattern.test(path));
}

/** The page module that draws a path: the 404 page's for a path that is no page (or NOT_FOUND_LOCATION). */
export function pageModuleOf(pathname: string): string {
  return pageModules[pageRouteOf(pathname)?.page ?? 'notFound'];
}

/** A page of the shopper's own: no shared cache keeps it (its address may carry what is theirs). */
export function isShopperPage(pathname: string): boolean {
  const access = pageRouteOf(pathname)?.access;
  return access === 'shopper' || access === 'secret';
}

const secretPatterns = [
  ...routePatterns.filter((route) => route.access === 'secret').map((route) => route.pattern),
  ...backOfficeSecretPaths.map(patternOf),
];

/**
 * The addresses of the secret pages up to their secret (`/order`, `/admin/set-password`), for the
 * logs to find it however the address goes on (http/redact-address.ts).
 */
export const secretPagePrefixes: readonly string[] = [
  ...pageRoutes.filter((route) => route.access === 'secret').map((route) => route.path),
  ...backOfficeSecretPaths,
].map((path) => path.replace(/\/:[^/]+$/, ''));

/** A page whose address is a secret, which no cache may keep or key by (an outside attack found them public). */
export function isSecretAddress(pathname: string): boolean {
  const path = routeShape(pathname);
  return secretPatterns.some((pattern) => pattern.test(path));
}

export function isPageRoute(pathname: string): boolean {
  return pageRouteOf(pathname) !== undefined;
}

/**
 * The pages the server renders (docs/decisions/0021-server-rendering.md): every page, the bare
 * address as /home (the home page's, page-head.ts). What every shopper sees alike (home, search, products,
 * about, contact, terms) is drawn whole; a page that depends on the shopper's browser (the basket,
 * checkout, account, sign-in, payment results) is drawn as the shop around its loading state, and
 * the browser draws the page itself (`ShopperPage` in src/web/app/layout/layout.tsx). The back office is drawn in
 * the browser.
 */
const serverRenderedPatterns: RegExp[] = routePatterns
  .filter((route) => route.path !== '/')
  .map((route) => route.pattern);

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
