import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '../../contract/error-codes.ts';

/**
 * In production the back office is served over HTTPS only (docs/back-office.md#security): a staff
 * password or session cookie never crosses the network in the clear, even when a proxy in front
 * forgot to redirect. Behind a proxy, TRUST_PROXY lets X-Forwarded-Proto say how the client came.
 */
export function requireHttps(production: boolean) {
  /** True when the request must be refused: production, and not over HTTPS. */
  const refuses = (request: FastifyRequest) => production && request.protocol !== 'https';
  const refusal = (reply: FastifyReply) =>
    reply
      .status(403)
      .send({ error: { code: errorCodes.httpsRequired, message: 'The back office is only served over HTTPS.' } });
  return {
    refuses,
    refusal,
    /** As an onRequest hook: the refusal is the reply, returned so Fastify goes no further. */
    hook: async (request: FastifyRequest, reply: FastifyReply) => (refuses(request) ? refusal(reply) : undefined),
  };
}

/** The back office's pages: /admin and everything under it. */
export function isAdminPage(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}
