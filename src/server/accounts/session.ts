import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_DAYS } from './accounts.service.ts';

/**
 * The session travels in an httpOnly, SameSite=Lax cookie (Secure and __Host- in production), or
 * as `Authorization: Bearer` for API clients (docs/rules.md#accounts-and-sessions).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-sid' : 'sid';
}

export function sessionTokenOf(request: FastifyRequest, secure: boolean): string | undefined {
  const bearer = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(request.headers.authorization ?? '')?.[1];
  return bearer ?? request.cookies[sessionCookieName(secure)];
}

/**
 * A request a browser made: browsers add Fetch Metadata (`Sec-Fetch-*`) to every request, and no
 * script can set or remove it. A browser keeps its session in the httpOnly cookie alone, so the
 * sign-in answer does not hand the page's scripts the token (issue 31); API clients send none.
 */
export function isBrowserRequest(request: FastifyRequest): boolean {
  return Object.keys(request.headers).some((name) => name.startsWith('sec-fetch-'));
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(sessionCookieName(secure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
  // A new session, a new CSRF token bound to it (src/server/http/csrf.ts).
  reply.renewCsrfToken({ [sessionCookieName(secure)]: token });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(sessionCookieName(secure), { path: '/', httpOnly: true, sameSite: 'lax', secure });
  reply.renewCsrfToken({ [sessionCookieName(secure)]: undefined });
}
