import { queryOptions, useQuery } from '@tanstack/react-query';
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

/** The sign-in token, kept under the spec's storage key; the page follows its changes. */
export const authToken = {
  get(): string | null {
    try {
      return localStorage.getItem(storageKeys.authToken);
    } catch {
      return null;
    }
  },
  set(token: string | null): void {
    if (token) localStorage.setItem(storageKeys.authToken, token);
    else localStorage.removeItem(storageKeys.authToken);
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The query keys of the signed-in customer's data: what signing in, out or saving makes stale. */
export const accountQueryKeys = { whoAmI: ['who-am-i'], account: ['account'], orders: ['account-orders'] } as const;

/**
 * Signs in with an e-mail address and password (the login page and checkout both do): the token
 * is kept under the spec's storage key. A refused sign-in throws.
 */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  const token = await requestJson<string>('/api/sign-in', {
    method: 'POST',
    body: JSON.stringify({ username: email, password }),
  });
  authToken.set(token);
}

export function whoAmIQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: [...accountQueryKeys.whoAmI, token],
    enabled: Boolean(token),
    retry: false,
    queryFn: ({ signal }) =>
      requestJson<SignedInUser>('/api/who-am-i', { signal, headers: { authorization: `Bearer ${token}` } }),
  });
}

export function accountQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: [...accountQueryKeys.account, token],
    enabled: Boolean(token),
    retry: false,
    queryFn: ({ signal }) =>
      requestJson<AccountAnswer>('/api/account', { signal, headers: { authorization: `Bearer ${token}` } }),
  });
}

/** The signed-in customer, asked of the server only when a sign-in token is stored. */
export function useSignedInUser() {
  const token = useSyncExternalStore(authToken.subscribe, authToken.get, () => null);
  return useQuery(whoAmIQueryOptions(token));
}

/** The signed-in customer's details and saved addresses (My Account, and checkout for customers). */
export function useAccount() {
  const token = useSyncExternalStore(authToken.subscribe, authToken.get, () => null);
  return useQuery(accountQueryOptions(token));
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
