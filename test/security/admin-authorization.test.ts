import { Writable } from 'node:stream';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../helpers/routes.ts';
import { staffMember } from '../helpers/staff.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Every back-office route (docs/back-office.md#security), walked as a stranger, as a signed-in
 * customer and, on the owner's routes, as staff: each must refuse (401 or 403) with nothing but the
 * error, whatever the route. The walk takes the routes from the running app, so a new route is in it
 * the day it is added.
 */
const PASSWORD = 'Correct-Horse-Battery-9';
/** Routes anyone may call: signing in, asking for a set-password link and following one. */
const publicRoutes = new Set([
  'POST /api/admin/sign-in',
  'POST /api/admin/forgot-password',
  'POST /api/admin/set-password',
  'POST /api/admin/sign-out',
]);
/**
 * What the `staff` role (migration 0036) may not do: staff accounts and roles, and the shop's
 * settings. Every permission against every route is walked in admin-permissions.test.ts.
 */
const ownerOnly = (path: string) => /^\/api\/admin\/(staff|roles|settings)(\/|$)/.test(path);

describe('back office authorization, route by route', () => {
  let t: TestApp;
  let customerSession: string;
  let staffCookie: string;
  let routes: Array<[string, string]>;
  beforeAll(async () => {
    t = await createTestApp({ demo: true, env: { RATE_LIMIT_FACTOR: '100' } });
    const email = `walker.${Date.now()}@example.com`;
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { titleId: 2, email, firstname: 'Meera', lastname: 'Patel', password: PASSWORD, confirm: PASSWORD },
    });
    await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
    customerSession = (
      await t.app.inject({ method: 'POST', url: '/api/sign-in', payload: { username: email, password: PASSWORD } })
    ).json();
    staffCookie = (await staffMember(t, 'staff')).cookie;
    routes = routesOf(t.server.printRoutes({ commonPrefix: false })).filter(
      ([method, path]) => path.startsWith('/api/admin/') && method !== 'HEAD' && method !== 'OPTIONS',
    );
  });
  afterAll(() => t.close());

  /** A route's path with its parameters filled in with something that exists. */
  const concrete = (path: string) => path.replace(/:(\w+)/g, '1');
  const call = (method: string, path: string, headers: Record<string, string>) =>
    t.app.inject({ method: method as 'GET', url: concrete(path), headers, payload: method === 'GET' ? undefined : {} });

  it('finds the back office routes to walk', () => {
    expect(routes.length).toBeGreaterThan(8);
    expect(routes.map(([method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(['GET /api/admin/me', 'GET /api/admin/staff', 'POST /api/admin/staff']),
    );
  });

  it('refuses every route but sign-in to a stranger and to a customer, saying nothing more', async () => {
    for (const [method, path] of routes) {
      if (publicRoutes.has(`${method} ${path}`)) continue;
      const strangers: Array<Record<string, string>> = [
        {},
        { cookie: `sid=${customerSession}` },
        { authorization: `Bearer ${customerSession}` },
      ];
      for (const headers of strangers) {
        const answer = await call(method, path, headers);
        expect({ route: `${method} ${path}`, status: answer.statusCode }).toEqual({
          route: `${method} ${path}`,
          status: 401,
        });
        expect(Object.keys(answer.json())).toEqual(['error']);
      }
    }
  });

  it('refuses the owner’s routes to the staff role, and lets it reach the others', async () => {
    for (const [method, path] of routes) {
      if (publicRoutes.has(`${method} ${path}`) || path.endsWith('/sign-out-everywhere')) continue;
      const answer = await call(method, path, { cookie: staffCookie });
      if (ownerOnly(path)) {
        expect({ route: `${method} ${path}`, status: answer.statusCode }).toEqual({
          route: `${method} ${path}`,
          status: 403,
        });
        expect(Object.keys(answer.json())).toEqual(['error']);
      } else {
        expect({ route: `${method} ${path}`, refused: [401, 403].includes(answer.statusCode) }).toEqual({
          route: `${method} ${path}`,
          refused: false,
        });
      }
    }
  });
});

describe('back office in production', () => {
  let t: TestApp;
  let webRoot: string;
  /** What the server logged at warn and above. */
  const logged: string[] = [];
  beforeAll(async () => {
    // A built app of two pages: the shop's and the back office's.
    webRoot = `${mkdtempSync(join(tmpdir(), 'shop-web-'))}/`;
    mkdirSync(join(webRoot, 'admin'));
    writeFileSync(
      join(webRoot, 'index.html'),
      '<!doctype html><html><head><title>Shop</title></head><body></body></html>',
    );
    writeFileSync(
      join(webRoot, 'admin', 'index.html'),
      '<!doctype html><html><head><title>Back office</title></head><body>ADMIN</body></html>',
    );
    t = await createTestApp({
      webRoot,
      env: {
        TRUST_PROXY: '127.0.0.1',
        NODE_ENV: 'production',
        SESSION_SECRET: 's'.repeat(32),
        PUBLIC_URL: 'https://shop.example',
        PAYPAL_MODE: 'sandbox',
        PAYPAL_BUSINESS_EMAIL: 'payments@shop.example',
        OPAYO_MODE: 'test',
        LOG_LEVEL: 'warn',
      },
      logStream: new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('is not served over plain HTTP, its pages nor its API', async () => {
    // The built file itself too (found by an outside attack: served from the static folder, cacheable).
    for (const url of ['/api/admin/me', '/admin', '/admin/orders', '/admin/index.html', '/admin/']) {
      const plain = await t.app.inject({ method: 'GET', url });
      expect({ url, status: plain.statusCode }).toEqual({ url, status: 403 });
    }
    // The refusal ends the request: the page is not built and sent after it (found by an outside
    // attack: each refused page logged a "Reply was already sent" error with its stack).
    expect(logged.filter((line) => /already sent/i.test(line))).toEqual([]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sign-in',
      payload: { email: 'a@b.example', password: 'x' },
    });
    expect(signIn.statusCode).toBe(403);
    const page = await t.app.inject({
      method: 'GET',
      url: '/admin/index.html',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ADMIN');
    expect(page.headers).toMatchObject({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' });
    const overHttps = await t.app.inject({
      method: 'GET',
      url: '/api/admin/me',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overHttps.statusCode).toBe(401);
  });
});
