import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';

describe('production mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        SESSION_SECRET: 'p'.repeat(32),
        PUBLIC_URL: 'https://shop.example',
        PAYPAL_MODE: 'sandbox',
        OPAYO_MODE: 'test',
      },
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
  });

  it('points the payments at the providers and marks its cookies Secure', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/paypal-config' })).json().url).toBe(
      'https://www.sandbox.paypal.com/cgi-bin/webscr',
    );
    const page = await t.server.inject({ method: 'GET', url: '/api/brands' });
    expect(page.cookies.find((c) => c.name === 'XSRF-TOKEN')?.secure).toBe(true);
  });
});
