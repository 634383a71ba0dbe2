import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { allowNonce, registerSecurityHeaders } from './security-headers.ts';

describe('security headers and health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends a strict Content-Security-Policy and the other security headers on every response', async () => {
    // The last is refused by a hook that answers before any route (a NUL in the address, 400).
    for (const url of ['/api/brands', '/home', '/no-such-page', '/images/products/dhol-1.svg', '/api/brands%00']) {
      const response = await t.app.inject({ method: 'GET', url });
      if (url.endsWith('%00')) expect(response.statusCode).toBe(400);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain(
        "form-action 'self' https://www.paypal.com https://www.sandbox.paypal.com https://live.opayo.eu.elavon.com https://sandbox.opayo.eu.elavon.com",
      );
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('answers /healthz while the process is up and /readyz while the database answers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ ok: true });
  });
});

describe('a development page’s nonce (npm run dev)', () => {
  it('is added to the scripts’ and styles’ sources and to nothing else', async () => {
    const app = Fastify();
    await registerSecurityHeaders(app, false);
    app.get('/page', (_request, reply) => allowNonce(reply, 'abc123').send('page'));
    const policy = String((await app.inject({ method: 'GET', url: '/page' })).headers['content-security-policy']);
    const plain = String(await createPlainPolicy()).split(';');
    const directives = policy.split(';');
    expect(directives).toHaveLength(plain.length);
    for (const [index, directive] of directives.entries()) {
      const before = plain[index] ?? '';
      if (/^(script-src|style-src) /.test(before)) expect(directive).toBe(`${before} 'nonce-abc123'`);
      else expect(directive).toBe(before);
    }
    // style-src-attr keeps 'unsafe-inline' alone: a nonce beside it would switch it off.
    expect(policy).toContain("style-src-attr 'unsafe-inline';");
    await app.close();
  });
});

async function createPlainPolicy(): Promise<string> {
  const app = Fastify();
  await registerSecurityHeaders(app, false);
  app.get('/page', () => 'page');
  const policy = String((await app.inject({ method: 'GET', url: '/page' })).headers['content-security-policy']);
  await app.close();
  return policy;
}
