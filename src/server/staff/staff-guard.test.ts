import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createStaffGuard } from './staff-guard.ts';
import type { Staff } from './staff.service.ts';

/**
 * The guard decides by the one table (admin-access.ts): a route it does not name is refused to
 * every member, the owner too, while the table's routes open by permission.
 */
describe('the staff guard', () => {
  const owner: Staff = {
    id: 1,
    email: 'owner@shop.example',
    name: 'Owner',
    role: 'owner',
    permissions: ['dispatch', 'refund', 'cancel', 'catalogue', 'pricing', 'customers', 'reports', 'staff', 'settings'],
  };
  const packer: Staff = { ...owner, id: 2, role: 'packer', permissions: ['dispatch'] };

  async function appWith(member: Staff) {
    const app = Fastify();
    await app.register(fastifyCookie);
    const guard = createStaffGuard({ staffFor: async () => member }, false);
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', guard.guard);
        admin.get('/not-in-the-table', () => ({ ok: true }));
        admin.post('/orders/:orderNumber/dispatch', () => ({ ok: true }));
        admin.get('/settings', () => ({ ok: true }));
      },
      { prefix: '/api/admin' },
    );
    return app;
  }

  it('refuses a route missing from the table, even to an owner', async () => {
    const app = await appWith(owner);
    const answer = await app.inject({ method: 'GET', url: '/api/admin/not-in-the-table', cookies: { admin: 't' } });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('FORBIDDEN');
    await app.close();
  });

  it('opens a route by the permission the table names for it', async () => {
    const app = await appWith(packer);
    const dispatch = await app.inject({
      method: 'POST',
      url: '/api/admin/orders/7/dispatch',
      cookies: { admin: 't' },
    });
    expect(dispatch.statusCode).toBe(200);
    const settings = await app.inject({ method: 'GET', url: '/api/admin/settings', cookies: { admin: 't' } });
    expect(settings.statusCode).toBe(403);
    await app.close();
  });
});
