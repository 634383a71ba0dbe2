import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../../test/helpers/registration.ts';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';

/** What production needs to start: secrets, its address and real payment settings. */
const productionEnv = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'p'.repeat(32),
  PUBLIC_URL: 'https://shop.example',
  PAYPAL_MODE: 'sandbox',
  PAYPAL_BUSINESS_EMAIL: 'payments@shop.example',
  OPAYO_MODE: 'test',
};

describe('production mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { ...productionEnv, LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => t.close());

  it('serves neither the payment sandboxes nor the local inbox', async () => {
    for (const url of [
      '/sandbox/paypal/webscr',
      '/sandbox/opayo/vspform-register.vsp',
      '/sandbox/paypal/ipn-validate',
    ]) {
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url,
            payload: 'a=1',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          })
        ).statusCode,
      ).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/dev/inbox' })).statusCode).toBe(404);
    // Nor the Click & Drop sandbox, and labels are off until CLICK_AND_DROP_MODE=live.
    const sandbox = await t.app.inject({
      method: 'POST',
      url: '/sandbox/click-and-drop/api/v1/orders',
      headers: { authorization: `Bearer ${t.config.clickAndDrop.apiKey}` },
      payload: { items: [] },
    });
    expect(sandbox.statusCode).toBe(404);
    expect(t.config.clickAndDrop.mode).toBe('off');
  });

  it('speaks only to the payment providers it has settings for: a PayPal shop takes no card calls', async () => {
    const status = async (method: 'GET' | 'POST', url: string) =>
      (await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined })).statusCode;
    // Opayo has no settings here: its Form post and its return would run under the sandbox's key.
    expect(await status('GET', '/api/sagepay-config/100001?code=abc')).toBe(404);
    expect(await status('GET', `/api/payments/opayo/return?crypt=@${'00'.repeat(16)}`)).toBe(404);
    // Nor PayPal Checkout, whose REST credentials are not set: its return and webhook are not there.
    expect(await status('GET', '/api/payments/paypal-checkout/return?token=ABC')).toBe(404);
    expect(await status('POST', '/webhooks/paypal')).toBe(404);
    // PayPal Payments Standard, the one configured, is.
    expect(await status('GET', '/api/paypal-config')).toBe(200);
  });

  it('keeps speaking to a second provider whose own settings are given, for the orders it started', async () => {
    const both = await createTestApp({
      env: {
        ...productionEnv,
        LOG_LEVEL: 'silent',
        OPAYO_VENDOR: 'raagshop',
        OPAYO_ENCRYPTION_PASSWORD: 'RealVendorKey123',
      },
    });
    try {
      const answer = await both.app.inject({
        method: 'GET',
        url: `/api/payments/opayo/return?crypt=@${'00'.repeat(16)}`,
      });
      expect(answer.statusCode).toBe(303);
      expect((await both.app.inject({ method: 'GET', url: '/api/payment-provider' })).body).toBe('paypal');
    } finally {
      await both.close();
    }
  });

  it('describes its API at /api/openapi.json, without the reference page', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    expect(document.json()).toMatchObject({ servers: [{ url: 'https://shop.example' }] });
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(404);
  });

  it('points the payments at the providers and marks its cookies Secure', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/paypal-config' })).json().url).toBe(
      'https://www.sandbox.paypal.com/cgi-bin/webscr',
    );
    const page = await t.server.inject({ method: 'GET', url: '/api/brands' });
    expect(page.cookies.find((c) => c.name === 'XSRF-TOKEN')?.secure).toBe(true);
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('gives a signed-in customer a __Host- session cookie, Secure and httpOnly, and reads only that one', async () => {
    const password = 'Production-Pass-2026';
    const email = 'prod.customer@example.com';
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(email, { titleId: 1, firstname: 'Dev', lastname: 'Anand', password }),
    });
    await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: email, password },
    });
    expect(signedIn.statusCode).toBe(200);
    const cookie = signedIn.cookies.find((c) => c.name === '__Host-sid');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(cookie?.domain).toBeUndefined();
    expect(signedIn.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    const token = cookie!.value;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/who-am-i', headers: { cookie: `__Host-sid=${token}` } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/who-am-i', headers: { cookie: `sid=${token}` } })).statusCode,
    ).toBe(401);
  });
});

describe('production logs and failures', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({
      demo: true,
      logStream,
      env: { ...productionEnv, LOG_LEVEL: 'info' },
    });
  });
  afterAll(() => t.close());

  it('answers with a request id, and logs JSON lines that carry it', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/brands' });
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    expect(logged.some((entry) => entry.reqId === requestId && entry.msg === 'request completed')).toBe(true);
    const fromProxy = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'edge-42' } });
    expect(fromProxy.headers['x-request-id']).toBe('edge-42');
    const forged = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a\nb c' } });
    expect(forged.headers['x-request-id']).not.toContain(' ');
  });

  it('answers a failure with a plain 500 and no detail, logs it, and says it is not ready', async () => {
    await t.db.destroy();
    const answer = await t.app.inject({ method: 'GET', url: '/api/product-types' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({
      error: { code: expect.any(String), message: 'Something went wrong on our side. Please try again.' },
    });
    expect(answer.body).not.toMatch(/at |\.ts|select|driver|pool/i);
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; level?: number; err?: unknown });
    expect(
      logged.some((entry) => entry.reqId === answer.headers['x-request-id'] && entry.level === 50 && entry.err),
    ).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
