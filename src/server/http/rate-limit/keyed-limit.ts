import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '../../../contract/error-codes.ts';
import type { RateLimitRepository } from './rate-limit.repository.ts';
import { answersWith } from '../hook-answers.ts';

/**
 * A limit counted by something other than the client (one account's sign-in guesses from any
 * number of addresses), in the same shared counters as the per-client limits. It is a preHandler
 * of its own because @fastify/rate-limit runs only the first of its limits on a request, so a
 * route's per-client limit and a second one of the plugin's would not both count.
 */
export function keyedLimit(
  counters: RateLimitRepository,
  options: {
    name: string;
    max: number;
    windowMs: number;
    keyOf: (request: FastifyRequest) => string | undefined;
    /** What the refusal says; a general "too many attempts" unless given. */
    message?: string;
  },
) {
  const limit = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = options.keyOf(request);
    if (key === undefined) return;
    const now = Date.now();
    const { hits, windowEndsAt } = await counters.hit(`${options.name} ${key}`, options.windowMs, now);
    if (hits <= options.max) return;
    return reply
      .status(429)
      .header('retry-after', String(Math.max(1, Math.ceil((windowEndsAt - now) / 1000))))
      .send({
        error: {
          code: errorCodes.tooManyRequests,
          message: options.message ?? 'Too many attempts. Please wait a few minutes and try again.',
        },
      });
  };
  return answersWith(limit, [429]);
}
