import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { CSRF_COOKIE, CSRF_HEADER } from '../../contract/csrf.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { sameSecret } from './same-secret.ts';

/**
 * CSRF (docs/rules.md#security): the server sets an XSRF-TOKEN cookie, and every non-GET
 * /api call must echo it in X-XSRF-TOKEN or gets a 403. Provider callbacks are checked by their
 * own protocols instead.
 */
const exempt = new Set(['/api/payments/paypal/ipn']);
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerCsrf(app: FastifyInstance, secure: boolean): void {
  app.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[CSRF_COOKIE];
    if (safeMethods.has(request.method)) {
      if (!cookie) {
        // Readable by the page's script, which echoes it; SameSite keeps other sites from sending it.
        reply.setCookie(CSRF_COOKIE, randomBytes(24).toString('base64url'), {
          path: '/',
          sameSite: 'lax',
          secure,
          httpOnly: false,
        });
      }
      return;
    }
    // Decided on the route the router matched, not on the raw address: the router decodes
    // `/%61pi/...` to `/api/...`, so a test of the address would let that spelling through.
    // A request that matches no route reaches only the 404 answer.
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/api/') || exempt.has(route)) return;
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameSecret(cookie, header)) {
      return reply.status(403).send({
        error: {
          code: errorCodes.csrf,
          message: 'This request did not come from the shop page. Please reload and try again.',
        },
      });
    }
  });
}
