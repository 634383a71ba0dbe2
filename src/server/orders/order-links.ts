import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_ID } from '../../contract/basket-rules.ts';

/**
 * The customer's order page links (docs/rules.md#the-customers-order-page): every order e-mail
 * carries one, and it opens the order with no account. A link's key is the order's number and a
 * signature of it and the order's link version made with the shop's secret: 256 bits no one can
 * guess, and no number can be changed into another's. Staff revoke every link made so far by
 * raising the order's link version (migration 0031). The key is a secret: the page's address is
 * redacted in logs and traces (src/contract/routes.ts, access 'secret'), never cached.
 */
export interface OrderLinks {
  /** The key of the link to this version of the order: `{orderNumber}.{signature}`. */
  keyOf(orderNumber: number, linkVersion: number): string;
  /** The page's path, from the shop's address: `/order/{key}`. */
  pathOf(orderNumber: number, linkVersion: number): string;
  /**
   * The order number a key names, when it has a key's shape; whether it is the shop's is for
   * `verify` to say, once the order's link version is known.
   */
  orderNumberOf(key: string): number | undefined;
  /** Whether the key is the shop's for this order at this link version. */
  verify(key: string, orderNumber: number, linkVersion: number): boolean;
}

const KEY_SHAPE = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/;

export function createOrderLinks(secret: string): OrderLinks {
  const signatureOf = (orderNumber: number, linkVersion: number) =>
    createHmac('sha256', secret).update(`order-page:${orderNumber}:${linkVersion}`).digest('base64url');
  const keyOf = (orderNumber: number, linkVersion: number) => `${orderNumber}.${signatureOf(orderNumber, linkVersion)}`;
  return {
    keyOf,
    pathOf: (orderNumber, linkVersion) => `/order/${keyOf(orderNumber, linkVersion)}`,
    orderNumberOf(key) {
      const match = KEY_SHAPE.exec(key);
      const orderNumber = match ? Number(match[1]) : undefined;
      // Past what the orders' integer column holds, no order has it (PostgreSQL would refuse to look).
      return orderNumber !== undefined && orderNumber <= MAX_ID ? orderNumber : undefined;
    },
    verify(key, orderNumber, linkVersion) {
      const expected = Buffer.from(keyOf(orderNumber, linkVersion));
      const given = Buffer.from(key);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/**
 * The order a link's key opens, when the key is the shop's for the order's current link version;
 * undefined for a key that is wrong, revoked (an older version) or guessed, alike. The signature
 * is checked even when no order has the number, so a wrong number takes the time a wrong
 * signature does.
 */
export async function orderOfLinkKey(
  links: OrderLinks,
  key: string,
  findOrder: (orderNumber: number) => Promise<{ id: number; link_version: number } | undefined>,
): Promise<number | undefined> {
  const orderNumber = links.orderNumberOf(key);
  if (orderNumber === undefined) return undefined;
  const order = await findOrder(orderNumber);
  const matches = links.verify(key, orderNumber, order?.link_version ?? 0);
  return order && matches ? order.id : undefined;
}
