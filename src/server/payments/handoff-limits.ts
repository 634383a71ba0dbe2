import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { clientKeyOf } from '../http/client-address.ts';
import { keyedLimit } from '../http/rate-limit/keyed-limit.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';

/** Handoffs one client may start a minute, whatever the order (docs/rules.md#limits-on-one-client). */
export const HANDOFFS_PER_CLIENT = 30;
/** Handoffs of one order in ten minutes, from any number of clients. */
export const HANDOFFS_PER_ORDER = 10;
const ORDER_WINDOW_MS = 10 * 60_000;

type Request = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string> }>;

/**
 * The calls that start a payment, whichever provider serves them, and the order each names. Each
 * costs the shop a call to the provider (PayPal Checkout creates an order through PayPal's API) or
 * hands out a fresh request (a new Opayo Crypt). sagepay-config's order is its number with the code
 * it must carry, so strangers naming someone else's order number count against no one but themselves.
 */
const handoffRoutes: Record<string, (request: Request) => string | undefined> = {
  '/api/payment-handoff/:code': (request) => request.params.code,
  '/api/paypal-handoff/:code': (request) => request.params.code,
  '/api/sagepay-config/:orderNumber': (request) => `${request.params.orderNumber} ${request.query.code ?? ''}`,
};

/**
 * Limits starting a payment per client and per order (attack report F5: 200 handoffs of one order
 * in 1.3 s made 200 PayPal orders, which could use up the merchant's PayPal rate limit for every
 * shopper). Counted in the shared counters, so every instance holds them; RATE_LIMIT_FACTOR scales
 * them. Added as preHandlers to each handoff route as it is registered, since some are served by
 * the providers' own route files. Call before those routes are registered.
 */
export function limitHandoffs(app: FastifyInstance, counters: RateLimitRepository, rateLimitFactor: number): void {
  const scaled = (max: number) => Math.max(1, Math.round(max * rateLimitFactor));
  const perClient = keyedLimit(counters, {
    name: 'payment-handoffs client',
    max: scaled(HANDOFFS_PER_CLIENT),
    windowMs: 60_000,
    keyOf: (request) => clientKeyOf(request.ip),
    message: 'Too many attempts to pay. Please wait a minute and try again.',
  });
  app.addHook('onRoute', (route) => {
    // Fastify's HEAD twin of each GET runs the same handler, so it is limited too.
    const orderOf = handoffRoutes[route.url];
    if (!orderOf) return;
    const perOrder = keyedLimit(counters, {
      name: 'payment-handoffs order',
      max: scaled(HANDOFFS_PER_ORDER),
      windowMs: ORDER_WINDOW_MS,
      keyOf: (request) => orderOf(request as Request),
      message: 'Too many attempts to pay for this order. Please wait a few minutes and try again.',
    });
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [...existing, perClient, perOrder] as preHandlerHookHandler[];
  });
}
