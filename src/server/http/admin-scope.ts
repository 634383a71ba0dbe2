import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '../../contract/error-codes.ts';

/**
 * In production the back office is served over HTTPS only (docs/back-office.md#security): a staff
 * password or session cookie never crosses the network in the clear, even when a proxy in front
 * forgot to redirect. Behind a proxy, TRUST_PROXY lets X-Forwarded-Proto say how the client came.
 */
export function requireHttps(production: boolean) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!production || request.protocol === 'https') return;
    return reply
      .status(403)
      .send({ error: { code: errorCodes.httpsRequired, message: 'The back office is only served over HTTPS.' } });
  };
}

/** The back office's pages: /admin and everything under it. */
export function isAdminPage(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}
