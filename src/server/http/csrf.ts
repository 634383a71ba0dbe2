import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHmac, randomBytes } from 'node:crypto';
import { CSRF_COOKIE, CSRF_HEADER } from '../../contract/csrf.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { sameSecret } from './same-secret.ts';

/**
 * CSRF (docs/rules.md#security): the server sets an XSRF-TOKEN cookie, and every non-GET /api
 * call must echo it in X-XSRF-TOKEN or gets a 403. Provider callbacks are checked by their own
 * protocols instead.
 *
 * The token is signed with SESSION_SECRET and bound to the sessions the browser holds (a random
 * nonce, and an HMAC of the nonce and the session cookies), so the double submit is not all that
 * stands guard: a token planted by a sibling subdomain that can write cookies, or one lifted from
 * another visitor, does not match this browser's session. A sign-in or sign-out changes the
 * session, so it answers with a new token (`reply.renewCsrfToken`).
 *
 * The token is set by the API's answers to GETs, not by pages (docs/decisions/0021-server-rendering.md):
 * a page is the same for every shopper and may be kept by a CDN, which would not keep, or would
 * share, an answer setting a cookie. The page's script asks `GET /api/csrf-token` for one before its
 * first call that changes something, if no API answer has set one yet.
 */
export const csrfExemptRoutes = new Set(['/api/payments/paypal/ipn']);
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyReply {
    /** Sets a new token for the sessions as this answer leaves them (a cookie set, or cleared: undefined). */
    renewCsrfToken(changed: Record<string, string | undefined>): void;
  }
}

/** The token for a set of session cookie values, with a given or a new nonce. */
export function csrfTokenFor(secret: string, sessions: Array<string | undefined>, nonce?: string): string {
  const once = nonce ?? randomBytes(18).toString('base64url');
  const mac = createHmac('sha256', secret)
    .update(`${once}|${sessions.map((value) => value ?? '').join('|')}`)
    .digest('base64url');
  return `${once}.${mac}`;
}

function signedFor(secret: string, token: string, sessions: Array<string | undefined>): boolean {
  const nonce = /^([A-Za-z0-9_-]{16,64})\.[A-Za-z0-9_-]{43}$/.exec(token)?.[1];
  return nonce !== undefined && sameSecret(csrfTokenFor(secret, sessions, nonce), token);
}

export function registerCsrf(
  app: FastifyInstance,
  options: { secure: boolean; secret: string; sessionCookies: string[] },
): void {
  const { secure, secret, sessionCookies } = options;
  const sessionsOf = (cookies: Record<string, string | undefined>) => sessionCookies.map((name) => cookies[name]);
  const setToken = (reply: FastifyReply, sessions: Array<string | undefined>) =>
    // Readable by the page's script, which echoes it; SameSite keeps other sites from sending it.
    reply.setCookie(CSRF_COOKIE, csrfTokenFor(secret, sessions), {
      path: '/',
      sameSite: 'lax',
      secure,
      httpOnly: false,
    });

  app.decorateReply('renewCsrfToken', function (this: FastifyReply, changed: Record<string, string | undefined>) {
    const cookies: Record<string, string | undefined> = { ...this.request.cookies, ...changed };
    setToken(this, sessionsOf(cookies));
  });

  // Answers nothing: the hook above sets the token when the browser has none, or one for other sessions.
  app.get(
    '/api/csrf-token',
    { schema: { hide: false, summary: 'Sets the XSRF-TOKEN cookie when missing' } },
    (_, reply) => reply.header('cache-control', 'no-store').status(204).send(),
  );

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const cookie = request.cookies[CSRF_COOKIE];
    const sessions = sessionsOf(request.cookies);
    if (safeMethods.has(request.method)) {
      if (!request.url.startsWith('/api/')) return;
      // A missing token, or one for sessions the browser no longer holds (a session cookie that
      // ran out), is replaced, so the page's next call carries a good one.
      if (!cookie || !signedFor(secret, cookie, sessions)) setToken(reply, sessions);
      return;
    }
    // Decided on the route the router matched, not on the raw address: the router decodes
    // `/%61pi/...` to `/api/...`, so a test of the address would let that spelling through.
    // A request that matches no route reaches only the 404 answer.
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/api/') || csrfExemptRoutes.has(route)) return;
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameSecret(cookie, header) || !signedFor(secret, cookie, sessions)) {
      return reply.status(403).send({
        error: {
          code: errorCodes.csrf,
          message: 'This request did not come from the shop page. Please reload and try again.',
        },
      });
    }
  });
}
