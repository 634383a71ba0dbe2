import { isPageRoute, secretPagePrefixes } from '../../contract/routes.ts';

/**
 * An address as the logs and traces may keep it (docs/rules.md#operations): whoever reads a log
 * line or a span (the logging service, the tracing backend, their operators) must not be able to
 * reset a password, activate an account, set a member of staff's password, recover an order or
 * see its status, or come back from a payment, with what it shows.
 */
export const REDACTED = 'REDACTED';

/**
 * A path's part before its secret, at the start of a segment, however many slashes part its
 * segments: an outside attack found the key logged whole in `/order/{key}/returns`, `//order/{key}`
 * and `/api//order-page/{key}`, which the router still answers or which name the key all the same.
 */
const before = (...segments: string[]) => new RegExp(`((?:^|/)${segments.join('/+')}/+)[^/]+`, 'gi');

/** The addresses whose next segment is a secret. */
const secretPathParts: RegExp[] = [
  // The pages whose address is a secret: an order's page and recovery, a password's reset, an
  // account's activation, a member of staff's password (contract/routes.ts).
  ...secretPagePrefixes.map((prefix) => before(...prefix.split('/').filter(Boolean))),
  // An order's code: its basket, its status, its payment handoff.
  before('api', '(?:recover-basket|order-status|payment-handoff|paypal-handoff)'),
  // The customer's order page: its link's key opens the order (orders/order-links.ts), and so the
  // cancellation and returns under it.
  before('api', 'order-page'),
  // A customer's invoice or credit note: the signature of its link opens it (document-links.ts).
  before('api', 'documents', '[^/]+', '[^/]+'),
  // PayPal Orders v2: the order's id is the token the shopper comes back with (the capture's
  // address at PayPal, and the same address in the local sandbox).
  before('v2', 'checkout', 'orders'),
];

/**
 * Query parameters that carry a secret wherever they appear: PayPal's return token and payer id
 * (Checkout), its transaction, custom field and auth (Standard's return: `cm` is the order's
 * code), Opayo's Crypt, and an order's code (`/api/sagepay-config/:orderNumber?code=`).
 */
const secretQueryNames = new Set(['token', 'payerid', 'ba_token', 'crypt', 'code', 'cm', 'custom', 'tx', 'auth']);

/** The address with every secret in its path and query replaced by REDACTED. */
export function redactAddress(address: string): string {
  const queryAt = address.indexOf('?');
  // Decoded as the router reads it, so that `/%6Frder/{key}` is found as `/order/{key}`.
  let path = decodedPath(queryAt === -1 ? address : address.slice(0, queryAt));
  for (const pattern of secretPathParts) path = path.replace(pattern, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  // No page reads its query but the search page (src/contract/routes.ts, pageAddress); a payment
  // provider's return to one may bring anything, so a page's query values are all dropped.
  const everyValue = isPageRoute(path) && !/^\/search\/*$/i.test(path);
  const query = address
    .slice(queryAt + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals === -1) return everyValue ? REDACTED : part;
      const name = part.slice(0, equals);
      return everyValue || secretQueryNames.has(decodedName(name).toLowerCase()) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  return `${path}?${query}`;
}

function decodedPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
