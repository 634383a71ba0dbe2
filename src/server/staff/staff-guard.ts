import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '../../contract/error-codes.ts';
import { accessOf } from './admin-access.ts';
import type { Staff, StaffService } from './staff.service.ts';
import { SESSION_HOURS } from './staff.service.ts';

/**
 * The back office's guard (docs/back-office.md#security, #permissions). Every /api/admin route is
 * closed by default: the one table (admin-access.ts) says who may call it. Its public routes
 * (sign-in, set-password) are open; every other needs a live staff session and, unless any member
 * may, a permission the member's role holds. A route the table does not name is refused to all.
 * A customer's session is a different cookie in a different table, so it never opens anything here.
 */

export function staffCookieName(secure: boolean): string {
  return secure ? '__Host-admin' : 'admin';
}

export function staffTokenOf(request: FastifyRequest, secure: boolean): string | undefined {
  return request.cookies[staffCookieName(secure)];
}

export function setStaffCookie(reply: FastifyReply, token: string, secure: boolean): void {
  // SameSite=Strict: the back office is never entered signed-in from another site's link.
  reply.setCookie(staffCookieName(secure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    // The browser may keep it as long as the server would honour it; the server ends it sooner when idle.
    maxAge: SESSION_HOURS * 3600,
  });
  // A new session, a new CSRF token bound to it (src/server/http/csrf.ts).
  reply.renewCsrfToken({ [staffCookieName(secure)]: token });
}

export function clearStaffCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(staffCookieName(secure), { path: '/', httpOnly: true, sameSite: 'strict', secure });
  reply.renewCsrfToken({ [staffCookieName(secure)]: undefined });
}

export function createStaffGuard(staffService: Pick<StaffService, 'staffFor'>, secure: boolean) {
  const acting = new WeakMap<FastifyRequest, Staff>();

  /** An onRequest hook for the whole /api/admin scope. */
  async function guard(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const url = request.routeOptions.url;
    const access = accessOf(request.method, url);
    if (access === 'public') return;
    const token = staffTokenOf(request, secure);
    const staff = token ? await staffService.staffFor(token) : undefined;
    if (!staff) {
      return reply
        .status(401)
        .send({ error: { code: errorCodes.unauthorized, message: 'Please sign in to the back office.' } });
    }
    // No route at all (url undefined) goes on to the 404; a route the table leaves out is nobody's.
    const allowed =
      url === undefined ||
      access === 'member' ||
      (access !== undefined && access.some((permission) => staff.permissions.includes(permission)));
    if (!allowed) {
      return reply.status(403).send({
        error: { code: errorCodes.forbidden, message: 'Your role does not allow this. Please ask an owner.' },
      });
    }
    acting.set(request, staff);
  }

  /** The staff member behind a request that passed the guard. */
  function staffOf(request: FastifyRequest): Staff {
    const staff = acting.get(request);
    if (!staff) throw new Error(`${request.url} was not guarded`);
    return staff;
  }

  return { guard, staffOf };
}

export type StaffGuard = ReturnType<typeof createStaffGuard>;
