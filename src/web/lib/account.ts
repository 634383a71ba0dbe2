import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { AccountAnswer } from '../../contract/accounts.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { ApiRequestError, limitMessage, requestJson } from './api.ts';
import { storageKeys } from './basket/basket-store.ts';

export interface SignedInUser {
  firstname: string;
  lastname: string;
}

/** "RAVI shankar": first name in upper case, last name in lower case (docs/rules.md#pages-and-routes). */
export function displayName(user: SignedInUser): string {
  return `${user.firstname.toUpperCase()} ${user.lastname.toLowerCase()}`;
}

const listeners = new Set<() => void>();

/**
 * What the spec's `authToken` storage key holds once the shopper has signed in: a mark, never the
 * session. The session is the httpOnly cookie, which no script can read (issue 31: a token in
 * localStorage, sent as a bearer token, was a 30-day session for any injected script to take).
 */
export const SIGNED_IN_MARK = 'signed-in';

/** Counts sign-ins and sign-outs in this page, so that each sign-in asks for its customer afresh. */
let generation = 0;

/**
 * Whether this browser signed in, as the spec's storage key says; the page follows its changes.
 * Only a hint of when to ask the server: the server has the last word (who-am-i), and a session
 * ended elsewhere clears the mark (`asSignedIn`).
 */
export const signedInMark = {
  /** This page's sign-in generation while the mark is set, else null (useSyncExternalStore's snapshot). */
  get(): number | null {
    try {
      const stored = localStorage.getItem(storageKeys.authToken);
      if (stored === null) return null;
      // A session token kept there by an earlier version of the shop is forgotten: the cookie
      // carries the same session.
      if (stored !== SIGNED_IN_MARK) localStorage.setItem(storageKeys.authToken, SIGNED_IN_MARK);
      return generation;
    } catch {
      return null;
    }
  },
  set(signedIn: boolean): void {
    generation += 1;
    try {
      if (signedIn) localStorage.setItem(storageKeys.authToken, SIGNED_IN_MARK);
      else localStorage.removeItem(storageKeys.authToken);
    } catch {
      // Storage refused (a private window's quota): the cookie still holds the session.
    }
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** A call for the signed-in customer, by the session cookie; a 401 means the session has ended (reset elsewhere, expired), so the mark goes. */
async function asSignedIn<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401 && signedInMark.get() !== null) {
      signedInMark.set(false);
    }
    throw error;
  }
}

/** The query keys of the signed-in customer's data: what signing in, out or saving makes stale. */
export const accountQueryKeys = { whoAmI: ['who-am-i'], account: ['account'], orders: ['account-orders'] } as const;

/**
 * Signs in with an e-mail address and password (the login page and checkout both do): the server
 * sets the session cookie, and the spec's storage key gets the mark alone. A refused sign-in throws.
 */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  // The answer is `true` to a browser (the token goes to API clients alone); it is not kept.
  await requestJson<unknown>('/api/sign-in', {
    method: 'POST',
    body: JSON.stringify({ username: email, password }),
  });
  signedInMark.set(true);
}

/** `session` is signedInMark's snapshot: each sign-in is a query of its own, and none without the mark. */
export function whoAmIQueryOptions(session: number | null) {
  return queryOptions({
    queryKey: [...accountQueryKeys.whoAmI, session],
    enabled: session !== null,
    retry: false,
    queryFn: ({ signal }) => asSignedIn(() => requestJson<SignedInUser>('/api/who-am-i', { signal })),
  });
}

export function accountQueryOptions(session: number | null) {
  return queryOptions({
    queryKey: [...accountQueryKeys.account, session],
    enabled: session !== null,
    retry: false,
    queryFn: ({ signal }) => asSignedIn(() => requestJson<AccountAnswer>('/api/account', { signal })),
  });
}

/** This browser's sign-in mark (signedInMark), followed as it changes; null on the server. */
export function useSignedInMark(): number | null {
  return useSyncExternalStore(signedInMark.subscribe, signedInMark.get, () => null);
}

/** The signed-in customer, asked of the server only when this browser signed in. */
export function useSignedInUser() {
  return useQuery(whoAmIQueryOptions(useSignedInMark()));
}

/** The signed-in customer's details and saved addresses (My Account, and checkout for customers). */
export function useAccount() {
  return useQuery(accountQueryOptions(useSignedInMark()));
}

/**
 * Whether the server still knows this browser's session (checkout sign-in skips itself for a
 * signed-in customer): the mark alone is not enough, as a session may have ended elsewhere.
 */
export async function confirmSignedIn(queryClient: QueryClient): Promise<boolean> {
  const session = signedInMark.get();
  if (session === null) return false;
  try {
    // Asked afresh, whatever the page asked before.
    await queryClient.fetchQuery({ ...whoAmIQueryOptions(session), staleTime: 0 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a sign-in was refused, for the login page and checkout alike: a wrong password or unknown
 * address, an account not yet activated (told only after the right password), or
 * the rate limit, with when to try again.
 */
export type SignInRefusal =
  { kind: 'failed' } | { kind: 'notActivated'; email: string; password: string } | { kind: 'limited'; message: string };

export function signInRefusalOf(error: unknown, email: string, password: string): SignInRefusal {
  const limited = limitMessage(error);
  if (limited) return { kind: 'limited', message: limited };
  if (error instanceof ApiRequestError && error.code === errorCodes.notActivated)
    return { kind: 'notActivated', email, password };
  return { kind: 'failed' };
}

/** POST /api/resend-activation: a fresh activation link; it needs the password, as sign-in does. */
export async function resendActivation(email: string, password: string): Promise<void> {
  await requestJson('/api/resend-activation', {
    method: 'POST',
    body: JSON.stringify({ username: email, password }),
  });
}
