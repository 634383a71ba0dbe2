import { timingSafeEqual } from 'node:crypto';

/**
 * Compares a secret a client sent (an order code, a CSRF token, a signature) with the right one in
 * constant time, so how long the answer takes says nothing about how much of a guess was right.
 */
export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
