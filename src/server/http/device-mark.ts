import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameSecret } from './same-secret.ts';

/**
 * A browser that has signed in to an account before (docs/rules.md#limits-on-one-client,
 * docs/back-office.md#security). Guesses at one account are limited from every client together,
 * so a stranger's few wrong guesses would otherwise keep its owner out for as long as they kept
 * sending them. A browser carrying this mark for the account it signs in to is counted on a limit
 * of its own instead. The mark is a random nonce signed with the account's address, so it is made
 * only by a sign-in that succeeded, names no one, and opens nothing for another account. Each
 * kind of account has its own cookie and its own signing purpose, so a shopper's mark is no
 * staff member's.
 */

const DEVICE_DAYS = 180;

export interface DeviceMarkOptions {
  /** Part of what is signed, so one kind's mark is never taken for another's. */
  purpose: string;
  /** The cookie's name; `__Host-` is put before it when cookies are secure. */
  cookie: string;
  secret: string;
  secure: boolean;
}

export function deviceMark(options: DeviceMarkOptions) {
  const cookieName = options.secure ? `__Host-${options.cookie}` : options.cookie;
  const markFor = (email: string, nonce: string) =>
    `${nonce}.${createHmac('sha256', options.secret).update(`${options.purpose}|${email}|${nonce}`).digest('base64url')}`;

  /** The nonce of this request's mark when it was given for this (normalised) address, else undefined. */
  function known(request: FastifyRequest, email: string): string | undefined {
    const mark = request.cookies[cookieName] ?? '';
    const nonce = /^([A-Za-z0-9_-]{24})\.[A-Za-z0-9_-]{43}$/.exec(mark)?.[1];
    return nonce !== undefined && sameSecret(markFor(email, nonce), mark) ? nonce : undefined;
  }

  /** Marks the browser after a sign-in to this address succeeded (the mark it held is kept if it was for it). */
  function mark(request: FastifyRequest, reply: FastifyReply, email: string): void {
    const nonce = known(request, email) ?? randomBytes(18).toString('base64url');
    reply.setCookie(cookieName, markFor(email, nonce), {
      path: '/',
      httpOnly: true,
      // Only the shop's own sign-in forms send it; no other site's page can.
      sameSite: 'strict',
      secure: options.secure,
      maxAge: DEVICE_DAYS * 24 * 3600,
    });
  }

  return { cookieName, known, mark };
}

export type DeviceMark = ReturnType<typeof deviceMark>;
