import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, type Permission } from '../../src/contract/admin/permissions.ts';
import { accessOf, adminAccess } from '../../src/server/staff/admin-access.ts';
import { routesOf } from '../helpers/routes.ts';
import { staffMember } from '../helpers/staff.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The permission walk (issue 37 item 2, docs/back-office.md#permissions): every back-office route,
 * taken from the running app, called by a member whose role holds one permission only, for each
 * of the nine, and by one whose role holds none. The one table (src/server/staff/admin-access.ts)
 * says who may call it: everyone else gets 403 and nothing but the error, before the route looks
 * at its input, and those it allows are never refused. Runs on SQLite and on PostgreSQL.
 */
describe('back office permissions, route by route', () => {
  let t: TestApp;
  let routes: Array<[string, string]>;
  /** A signed-in member whose role holds just this permission (`none`: a role holding nothing). */
  const cookies = new Map<Permission | 'none', string>();

  beforeAll(async () => {
    t = await createTestApp({ demo: true, env: { RATE_LIMIT_FACTOR: '100' } });
    // Member 1, whom the walk's `/staff/1/...` calls reach, is not an owner and, once the roles are
    // made, holds nothing: an owner's account is the owners' alone, and one holding more than the
    // caller is out of their reach, which the service says (roles.admin-routes.test.ts), not the table.
    const first = await staffMember(t, 'staff');
    const owner = await staffMember(t, 'owner');
    for (const permission of [...permissions, 'none'] as const) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/admin/roles',
        headers: { cookie: owner.cookie },
        payload: { name: `only ${permission}`, permissions: permission === 'none' ? [] : [permission] },
      });
      expect(made.statusCode, made.body).toBe(200);
      cookies.set(permission, (await staffMember(t, `only ${permission}`)).cookie);
    }
    const emptied = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${first.id}`,
      headers: { cookie: owner.cookie },
      payload: { role: 'only none' },
    });
    expect(emptied.statusCode, emptied.body).toBe(200);
    routes = routesOf(t.server.printRoutes({ commonPrefix: false })).filter(
      ([method, path]) => path.startsWith('/api/admin/') && method !== 'HEAD' && method !== 'OPTIONS',
    );
  }, 120_000);
  afterAll(() => t.close());

  const concrete = (path: string) => path.replace(/:(\w+)/g, '1');
  const call = (method: string, path: string, cookie: string) =>
    t.app.inject({
      method: method as 'GET',
      url: concrete(path),
      headers: { cookie },
      payload: method === 'GET' || method === 'DELETE' ? undefined : {},
    });

  it('names every registered back-office route in the table, and nothing else', () => {
    const registered = routes.map(([method, path]) => `${method} ${path.slice('/api/admin'.length)}`).sort();
    expect(registered.length).toBeGreaterThan(80);
    expect(registered).toEqual(Object.keys(adminAccess).sort());
  });

  it('refuses a route the table does not name', () => {
    expect(accessOf('GET', '/api/admin/orders')).toEqual(['dispatch', 'refund', 'cancel']);
    expect(accessOf('HEAD', '/api/admin/orders')).toEqual(['dispatch', 'refund', 'cancel']);
    expect(accessOf('GET', '/api/admin/not-in-the-table')).toBeUndefined();
    expect(accessOf('DELETE', '/api/admin/orders')).toBeUndefined();
  });

  it('lets each permission call what the table allows it, and refuses it everything else with 403', async () => {
    const wrong: string[] = [];
    for (const [method, path] of routes) {
      const access = accessOf(method, path);
      // Public routes are walked as a stranger in admin-authorization.test.ts; signing out everywhere would end the walk.
      if (access === 'public' || path.endsWith('/sign-out-everywhere')) continue;
      for (const [permission, cookie] of cookies) {
        const allowed =
          access === 'member' || (Array.isArray(access) && permission !== 'none' && access.includes(permission));
        const answer = await call(method, path, cookie);
        const route = `${method} ${path} as ${permission}`;
        if (allowed) {
          if ([401, 403].includes(answer.statusCode) || answer.statusCode >= 500) {
            wrong.push(`${route}: allowed, answered ${answer.statusCode} ${answer.body.slice(0, 120)}`);
          }
        } else if (answer.statusCode !== 403 || Object.keys(answer.json()).join() !== 'error') {
          wrong.push(`${route}: not allowed, answered ${answer.statusCode} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('tells a member what they may do, and sends the table the server uses', async () => {
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/admin/me',
      headers: { cookie: cookies.get('dispatch')! },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ role: 'only dispatch', permissions: ['dispatch'], access: adminAccess });
  });
});
