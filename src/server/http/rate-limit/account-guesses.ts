import type { FastifyRequest } from 'fastify';
import type { DeviceMark } from '../device-mark.ts';
import { keyedLimit } from './keyed-limit.ts';
import type { RateLimitRepository } from './rate-limit.repository.ts';

/**
 * Guesses at one account's password, counted together from every client, so spreading them over
 * many addresses does not buy more tries (docs/rules.md#limits-on-one-client). The key is the
 * address as typed (normalised), whether or not it has an account, so the refusal tells nothing.
 * A browser that signed in to the account before (device-mark.ts) counts on a budget of its own,
 * so strangers' guesses cannot keep the account's owner out.
 */
export function accountGuessLimit(
  counters: RateLimitRepository,
  options: {
    name: string;
    rateLimitFactor: number;
    /** The normalised address the request tries, or undefined when it names none. */
    emailOf: (request: FastifyRequest) => string | undefined;
    device: DeviceMark;
  },
) {
  return keyedLimit(counters, {
    name: options.name,
    max: Math.max(1, Math.round(10 * options.rateLimitFactor)),
    windowMs: 5 * 60_000,
    keyOf: (request) => {
      const email = options.emailOf(request);
      if (email === undefined) return undefined;
      const known = options.device.known(request, email);
      return known === undefined ? email : `device ${known}`;
    },
  });
}
