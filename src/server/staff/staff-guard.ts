import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '../../contract/admin/staff.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import type { Staff, StaffService } from './staff.service.ts';
import { SESSION_HOURS } from './staff.service.ts';

/**
 * The back office's guard (docs/back-office.md#security). Every /api/admin route is closed by
 * default: it needs a live staff session, and a route marked `config: { role: 'owner' }` needs an
 * owner. Only routes marked `config: { staffPublic: true }` (sign-in, set-password) are open.
 * A customer's session is a different cookie in a different table, so it never opens anything here.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without a staff session (sign-in, set-password, sign-out). */
    staffPublic?: boolean;
    /** The role a route needs beyond being staff. */
    role?: StaffRole;
  }
}

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
    const config = request.routeOptions.config;
    if (config.staffPublic) return;
    const token = staffTokenOf(request, secure);
    const staff = token ? await staffService.staffFor(token) : undefined;
    if (!staff) {
      return reply
        .status(401)
        .send({ error: { code: errorCodes.unauthorized, message: 'Please sign in to the back office.' } });
    }
    if (config.role === 'owner' && staff.role !== 'owner') {
      return reply.status(403).send({ error: { code: errorCodes.forbidden, message: 'Only an owner may do this.' } });
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
