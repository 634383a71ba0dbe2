import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { clientKeyOf } from '../client-address.ts';
import { answersWith } from '../hook-answers.ts';

/** Checks of a voucher code one client may make a minute, wherever the code is sent. */
export const VOUCHER_CHECKS_PER_MINUTE = 20;

/** Does a basket body name a voucher code, as a new attempt or as one it carries? */
function carriesVoucherCode(body: unknown): boolean {
  const basket = body as { voucherCodeAttempt?: unknown; appliedVouchers?: Array<{ code?: unknown }> } | undefined;
  const named = (code: unknown) => typeof code === 'string' && code.trim() !== '';
  return named(basket?.voucherCodeAttempt) || (basket?.appliedVouchers ?? []).some((voucher) => named(voucher?.code));
}

/**
 * One limit for guessing voucher codes (docs/rules.md#limits-on-one-client): every answer that
 * prices a code tells whether it applies, so a code counts wherever it enters (verify-basket's
 * attempt or applied voucher, and the commit), against one count per client shared by those routes
 * and by every instance. A basket without a code is not counted. Used as the route's preHandler,
 * after the body is read.
 */
export function voucherGuessLimit(app: FastifyInstance, rateLimitFactor: number): preHandlerAsyncHookHandler {
  return answersWith(
    app.rateLimit({
      max: Math.max(1, Math.round(VOUCHER_CHECKS_PER_MINUTE * rateLimitFactor)),
      timeWindow: '1 minute',
      keyGenerator: (request: FastifyRequest) => `voucher-checks ${clientKeyOf(request.ip)}`,
      allowList: (request: FastifyRequest) => !carriesVoucherCode(request.body),
    }),
    [429],
  );
}
