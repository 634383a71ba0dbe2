import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every response (docs/rules.md#security), with a strict Content-Security-Policy:
 * scripts and styles from the shop only (style attributes aside, which React sets), the map from
 * OpenStreetMap, and forms posted only to the shop and its payment providers.
 */
const paymentHosts = [
  'https://www.paypal.com',
  'https://www.sandbox.paypal.com',
  'https://live.opayo.eu.elavon.com',
  'https://sandbox.opayo.eu.elavon.com',
];

/** Sent on every answer, the router's own refusals included. */
const REFERRER_POLICY = 'strict-origin-when-cross-origin';

export async function registerSecurityHeaders(app: FastifyInstance, production: boolean): Promise<void> {
  // Helmet's middleware is built once here: the Fastify plugin built it again for every request,
  // parsing the policy each time (6% of the shop's main thread in a sale, bench:sale's profile).
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'style-src-attr': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'frame-src': ['https://www.openstreetmap.org'],
        'form-action': ["'self'", ...paymentHosts],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        ...(production ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // The shop's own pages are same-origin; the map and payment pages are other sites anyway.
    crossOriginEmbedderPolicy: false,
    hsts: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: REFERRER_POLICY },
  });
  app.addHook('onRequest', (request, reply, done) =>
    setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
}

/** For the small self-contained pages (sandboxes, local inbox) that carry their own <style>. */
export function allowInlineStyle(reply: FastifyReply): FastifyReply {
  return reply.header(
    'content-security-policy',
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'",
  );
}

/**
 * Development (`npm run dev`, dev-web.ts): the page's own nonce allows the inline scripts and the
 * styles Vite adds (React Refresh's preamble, each module's CSS); nothing else inline is allowed.
 */
export function allowNonce(reply: FastifyReply, nonce: string): FastifyReply {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return reply;
  return reply.header(
    'content-security-policy',
    policy.replace(
      /\b(script-src|style-src)\s([^;]*)/g,
      (_, directive: string, sources: string) => `${directive} ${sources} 'nonce-${nonce}'`,
    ),
  );
}

/**
 * For the router's own refusals (an address that does not decode), which it answers before the
 * hooks that set the headers above run: the same protections, with a policy for a JSON body.
 */
export function withSecurityHeadersBeforeRouting(reply: FastifyReply): FastifyReply {
  return reply.headers({
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'referrer-policy': REFERRER_POLICY,
  });
}
