// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmSignedIn, SIGNED_IN_MARK, signedInMark, signInWithPassword } from './account.ts';
import { storageKeys } from './basket/basket-store.ts';

/**
 * The session is the httpOnly cookie alone (issue 31, item 10): the spec's `authToken` key holds a
 * mark, the page sends no bearer token, and a session the server no longer knows clears the mark.
 */
describe('the sign-in mark', () => {
  const TOKEN = 'Ab3_x-9'.repeat(6);
  const calls: Array<{ url: string; authorization: string | null }> = [];
  let answer: (url: string) => Response;

  beforeEach(() => {
    localStorage.clear();
    calls.length = 0;
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      calls.push({ url, authorization: new Headers(init.headers).get('authorization') });
      return Promise.resolve(answer(url));
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    signedInMark.set(false);
  });

  it('keeps a mark, not what the sign-in answered, even when it answered a token', async () => {
    answer = () => Response.json(TOKEN);
    await signInWithPassword('asha@example.com', 'Dholak-Wedding-2026');
    expect(localStorage.getItem(storageKeys.authToken)).toBe(SIGNED_IN_MARK);
    expect(JSON.stringify({ ...localStorage })).not.toContain(TOKEN);
  });

  it('forgets a session token an earlier version kept under the key', () => {
    localStorage.setItem(storageKeys.authToken, TOKEN);
    expect(signedInMark.get()).not.toBeNull();
    expect(localStorage.getItem(storageKeys.authToken)).toBe(SIGNED_IN_MARK);
  });

  it('asks who-am-i by the cookie alone, and is signed in while the server knows the session', async () => {
    signedInMark.set(true);
    answer = () => Response.json({ firstname: 'Asha', lastname: 'Kaur' });
    expect(await confirmSignedIn(new QueryClient())).toBe(true);
    expect(calls).toEqual([{ url: '/api/who-am-i', authorization: null }]);
    expect(signedInMark.get()).not.toBeNull();
  });

  it('is not signed in, and drops the mark, when the server has ended the session', async () => {
    signedInMark.set(true);
    answer = () => Response.json({ error: { code: 'UNAUTHORIZED', message: 'Please sign in.' } }, { status: 401 });
    expect(await confirmSignedIn(new QueryClient())).toBe(false);
    expect(signedInMark.get()).toBeNull();
    expect(localStorage.getItem(storageKeys.authToken)).toBeNull();
  });

  it('asks nothing without the mark', async () => {
    answer = () => Response.json({ firstname: 'Asha', lastname: 'Kaur' });
    expect(await confirmSignedIn(new QueryClient())).toBe(false);
    expect(calls).toEqual([]);
  });

  it('asks afresh each time, not from what the page asked before the session ended', async () => {
    signedInMark.set(true);
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    answer = () => Response.json({ firstname: 'Asha', lastname: 'Kaur' });
    expect(await confirmSignedIn(client)).toBe(true);
    answer = () => Response.json({ error: { code: 'UNAUTHORIZED', message: 'Please sign in.' } }, { status: 401 });
    expect(await confirmSignedIn(client)).toBe(false);
  });
});
