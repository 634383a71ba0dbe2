import { isPageRoute, isSecretAddress } from '../../contract/routes.ts';

/**
 * An address as the logs and traces may keep it (docs/rules.md#operations): whoever reads a log
 * line or a span (the logging service, the tracing backend, their operators) must not be able to
 * reset a password, activate an account, set a member of staff's password, recover an order or
 * see its status, or come back from a payment, with what it shows.
 */
export const REDACTED = 'REDACTED';

/** The API's and PayPal's addresses whose part after the prefix is a secret. */
const secretPathParts: RegExp[] = [
  // An order's code: its basket, its status, its payment handoff.
  /^(\/api\/(?:recover-basket|order-status|payment-handoff|paypal-handoff)\/)[^/]+/i,
  // The customer's order page: its link's key opens the order (orders/order-links.ts), and so the
  // cancellation and returns under it.
  /^(\/api\/order-page\/)[^/]+/i,
  // A customer's invoice or credit note: the signature of its link opens it (document-links.ts).
  /^(\/api\/documents\/[^/]+\/[^/]+\/)[^/]+/i,
  // PayPal Orders v2: the order's id is the token the shopper comes back with (the capture's
  // address at PayPal, and the same address in the local sandbox).
  /(\/v2\/checkout\/orders\/)[^/]+/i,
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
  let path = queryAt === -1 ? address : address.slice(0, queryAt);
  if (isSecretAddress(path)) path = path.replace(/[^/]+(\/*)$/, `${REDACTED}$1`);
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

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
