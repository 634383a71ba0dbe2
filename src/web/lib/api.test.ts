// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '../../contract/csrf.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { ApiRequestError, requestFile, requestJson } from './api.ts';

/**
 * A call that changes something echoes the XSRF-TOKEN cookie (docs/rules.md#security). Pages do not
 * set it (they may be kept by a CDN, docs/decisions/0021-server-rendering.md), so the page asks the
 * API for one first when it has none, and asks again once when the server refuses the one it has.
 */
describe('requestJson and the CSRF token', () => {
  const calls: Array<{ url: string; method: string; token: string | null }> = [];
  let answers: Array<(url: string) => Response>;

  beforeEach(() => {
    document.cookie = `${CSRF_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    calls.length = 0;
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ url, method, token: new Headers(init.headers).get(CSRF_HEADER) });
      if (url === '/api/csrf-token') {
        // The cookie arrives with the answer, a moment later, as over a network.
        const token = `token-${calls.length}`;
        return new Promise((resolve) =>
          setTimeout(() => {
            document.cookie = `${CSRF_COOKIE}=${token}; path=/`;
            resolve(new Response(null, { status: 204 }));
          }, 5),
        );
      }
      const answer = answers.shift();
      return Promise.resolve(answer ? answer(url) : Response.json({ ok: true }));
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const refused = () =>
    Response.json(
      { error: { code: errorCodes.csrf, message: 'This request did not come from the shop page.' } },
      { status: 403 },
    );

  it('asks for a token before a first call that changes something, and echoes it', async () => {
    answers = [];
    await requestJson('/api/basket/verify', { method: 'POST', body: '{}' });
    expect(calls).toEqual([
      { url: '/api/csrf-token', method: 'GET', token: null },
      { url: '/api/basket/verify', method: 'POST', token: 'token-1' },
    ]);
  });

  it('asks once for calls made at once, which all echo the one token', async () => {
    answers = [];
    await Promise.all([
      requestJson('/api/basket/verify', { method: 'POST', body: '{}' }),
      requestJson('/api/search', { method: 'POST', body: '{}' }),
    ]);
    expect(calls.filter((call) => call.url === '/api/csrf-token')).toHaveLength(1);
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.token)).toEqual(['token-1', 'token-1']);
  });

  it('asks for nothing more when it has a token, nor for a GET', async () => {
    answers = [];
    document.cookie = `${CSRF_COOKIE}=kept; path=/`;
    await requestJson('/api/brands');
    await requestJson('/api/search', { method: 'POST', body: '{}' });
    expect(calls).toEqual([
      { url: '/api/brands', method: 'GET', token: null },
      { url: '/api/search', method: 'POST', token: 'kept' },
    ]);
  });

  it('asks for a new token once when the server refuses the one it has, then tries again', async () => {
    document.cookie = `${CSRF_COOKIE}=stale; path=/`;
    answers = [refused];
    await expect(requestJson('/api/search', { method: 'POST', body: '{}' })).resolves.toEqual({ ok: true });
    expect(calls.map((call) => `${call.method} ${call.url} ${call.token}`)).toEqual([
      'POST /api/search stale',
      'GET /api/csrf-token null',
      'POST /api/search token-2',
    ]);
  });

  it('answers nothing for a 204, as deleting a packaging preset answers, rather than failing to read a body', async () => {
    answers = [() => new Response(null, { status: 204 })];
    await expect(requestJson<void>('/api/admin/packagings/3', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('gives up with the refusal when the new token is refused too', async () => {
    document.cookie = `${CSRF_COOKIE}=stale; path=/`;
    answers = [refused, refused];
    const failure = await requestJson('/api/search', { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).status).toBe(403);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2);
  });
});

/** A file (a PDF) asked for by fetch: its bytes and name, or the refusal as requestJson throws it. */
describe('requestFile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers the file with the name the server gave it', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response('%PDF-1.7', {
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="batch.pdf"' },
        }),
      ),
    );
    const file = await requestFile('/api/admin/documents?from=2026-11-01&to=2026-11-28');
    expect(file.filename).toBe('batch.pdf');
    expect(await file.blob.text()).toBe('%PDF-1.7');
  });

  it('throws a refusal with the fields it names, for a form to show beside them', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        Response.json(
          {
            error: {
              code: errorCodes.validation,
              message: 'Invalid to',
              fields: [{ field: 'to', message: 'The last day cannot be before the first.' }],
            },
          },
          { status: 400 },
        ),
      ),
    );
    const failure = await requestFile('/api/admin/documents?from=2026-11-28&to=2026-11-01').catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).status).toBe(400);
    expect((failure as ApiRequestError).fields).toEqual([
      { field: 'to', message: 'The last day cannot be before the first.' },
    ]);
  });
});
