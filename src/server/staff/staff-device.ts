import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameSecret } from '../http/same-secret.ts';

/**
 * A browser that has signed in to a staff account before (docs/back-office.md#security). Guesses
 * at one account are limited from every client together, so a stranger's few wrong guesses would
 * otherwise keep its owner out for as long as they kept sending them. A browser carrying this mark
 * for the account it signs in to is counted on a limit of its own instead. The mark is a random
 * nonce signed with the account's address, so it is made only by a sign-in that succeeded, names
 * no one, and opens nothing for another account.
 */

const DEVICE_DAYS = 180;

export function staffDeviceCookieName(secure: boolean): string {
  return secure ? '__Host-admin-device' : 'admin-device';
}

function markFor(secret: string, email: string, nonce: string): string {
  const mac = createHmac('sha256', secret).update(`staff-device|${email}|${nonce}`).digest('base64url');
  return `${nonce}.${mac}`;
}

/** The nonce of this request's mark when it was given for this (normalised) address, else undefined. */
export function knownStaffDevice(
  request: FastifyRequest,
  email: string,
  options: { secret: string; secure: boolean },
): string | undefined {
  const mark = request.cookies[staffDeviceCookieName(options.secure)] ?? '';
  const nonce = /^([A-Za-z0-9_-]{24})\.[A-Za-z0-9_-]{43}$/.exec(mark)?.[1];
  return nonce !== undefined && sameSecret(markFor(options.secret, email, nonce), mark) ? nonce : undefined;
}

/** Marks the browser after a sign-in to this address succeeded (the mark it held is kept if it was for it). */
export function markStaffDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  options: { secret: string; secure: boolean },
): void {
  const nonce = knownStaffDevice(request, email, options) ?? randomBytes(18).toString('base64url');
  reply.setCookie(staffDeviceCookieName(options.secure), markFor(options.secret, email, nonce), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    maxAge: DEVICE_DAYS * 24 * 3600,
  });
}
