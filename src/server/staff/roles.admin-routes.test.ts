import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions } from '../../contract/admin/permissions.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { staffMember } from '../../../test/helpers/staff.ts';

/**
 * Roles (issue 37 item 2, docs/back-office.md#permissions): the owner role holds everything and is
 * nobody's to change; the owner defines the others (a packer who dispatches and nothing else), and
 * every change is audited. A role someone holds is not deleted.
 */
describe('back office: roles', () => {
  let t: TestApp;
  let owner: { id: number; cookie: string };
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    owner = await staffMember(t, 'owner');
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const audit = (action: string) =>
    t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  it('starts with the owner role, holding everything, and the staff role as it was', async () => {
    const roles = (await call('GET', '/roles', owner.cookie)).json();
    expect(roles.map((role: { name: string }) => role.name)).toEqual(['owner', 'staff']);
    expect(roles[0]).toMatchObject({ builtIn: true, permissions: [...permissions] });
    expect(roles[1]).toMatchObject({
      builtIn: false,
      permissions: ['dispatch', 'refund', 'cancel', 'catalogue', 'pricing', 'customers', 'reports'],
    });
  });

  it('lets the owner define a packer, who may dispatch and do nothing else', async () => {
    const made = await call('POST', '/roles', owner.cookie, { name: 'Packer', permissions: ['dispatch'] });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ name: 'Packer', permissions: ['dispatch'], builtIn: false, members: 0 });
    const packer = await staffMember(t, 'packer');
    const me = (await call('GET', '/me', packer.cookie)).json();
    expect(me).toMatchObject({ role: 'Packer', roleId: made.json().id, permissions: ['dispatch'] });
    expect((await call('GET', '/orders', packer.cookie)).statusCode).toBe(200);
    for (const url of ['/dashboard', '/customers', '/products', '/vouchers', '/staff', '/settings', '/roles']) {
      expect({ url, status: (await call('GET', url, packer.cookie)).statusCode }).toEqual({ url, status: 403 });
    }
    const created = await audit('role.create');
    expect(created.at(-1)).toMatchObject({ staff_id: owner.id, entity_id: String(made.json().id) });
    expect(JSON.parse(created.at(-1)!.after!)).toEqual({ name: 'Packer', permissions: 'dispatch' });
  });

  it('renames and changes a role, at once for the members holding it, audited', async () => {
    const role = (await call('POST', '/roles', owner.cookie, { name: 'Helper', permissions: ['catalogue'] })).json();
    const helper = await staffMember(t, 'Helper');
    expect((await call('GET', '/products', helper.cookie)).statusCode).toBe(200);
    const changed = await call('PUT', `/roles/${role.id}`, owner.cookie, {
      name: 'Shop floor',
      permissions: ['pricing', 'dispatch'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Shop floor', permissions: ['dispatch', 'pricing'], members: 1 });
    expect((await call('GET', '/products', helper.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/vouchers', helper.cookie)).statusCode).toBe(200);
    expect((await call('GET', '/me', helper.cookie)).json().role).toBe('Shop floor');
    const updated = (await audit('role.update')).at(-1)!;
    expect(JSON.parse(updated.before!)).toEqual({ name: 'Helper', permissions: 'catalogue' });
    expect(JSON.parse(updated.after!)).toEqual({ name: 'Shop floor', permissions: 'dispatch,pricing' });
    const taken = await call('PUT', `/roles/${role.id}`, owner.cookie, { name: 'STAFF', permissions: [] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toContain('STAFF');
  });

  it('will not change or delete the owner role', async () => {
    const ownerRole = (await call('GET', '/roles', owner.cookie)).json()[0];
    expect(
      (await call('PUT', `/roles/${ownerRole.id}`, owner.cookie, { name: 'boss', permissions: [] })).statusCode,
    ).toBe(409);
    expect((await call('DELETE', `/roles/${ownerRole.id}`, owner.cookie)).statusCode).toBe(409);
    expect((await call('GET', '/roles', owner.cookie)).json()[0]).toMatchObject({ name: 'owner', builtIn: true });
  });

  it('refuses to delete a role someone holds, naming it, and deletes it once nobody does', async () => {
    const role = (await call('POST', '/roles', owner.cookie, { name: 'Temp', permissions: ['reports'] })).json();
    const member = await staffMember(t, 'Temp');
    const refused = await call('DELETE', `/roles/${role.id}`, owner.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('“Temp” is held by 1 member');
    const moved = await call('PATCH', `/staff/${member.id}`, owner.cookie, { role: 'staff' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ role: 'staff' });
    const deleted = await call('DELETE', `/roles/${role.id}`, owner.cookie);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await call('GET', '/roles', owner.cookie)).json().map((r: { name: string }) => r.name)).not.toContain(
      'Temp',
    );
    expect(JSON.parse((await audit('role.delete')).at(-1)!.before!)).toEqual({ name: 'Temp', permissions: 'reports' });
  });

  it("refuses a role name on two lines, or one that only looks like the owner role's", async () => {
    for (const name of ['Packer\r\nowner', 'own\u0435r', 'OWN\u0415R', 'Packer \u202e']) {
      const answer = await call('POST', '/roles', owner.cookie, { name, permissions: ['dispatch'] });
      expect({ name, status: answer.statusCode }).toEqual({ name, status: 400 });
      expect(answer.json().error.fields[0].field).toBe('name');
    }
  });

  it('names an unknown role as the fault when adding a member', async () => {
    const answer = await call('POST', '/staff', owner.cookie, { email: 'x@shop.example', name: 'X', role: 'nobody' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.fields).toEqual([expect.objectContaining({ field: 'role' })]);
  });

  it('keeps the last owner: moving them to a defined role is refused', async () => {
    const owners = await t.db.kysely
      .selectFrom('staff')
      .select('id')
      .where('role', '=', 'owner')
      .where('password_hash', 'is not', null)
      .where('disabled_at', 'is', null)
      .execute();
    expect(owners.map((o) => o.id)).toEqual([owner.id]);
    const answer = await call('PATCH', `/staff/${owner.id}`, owner.cookie, { role: 'staff' });
    expect(answer.statusCode).toBe(409);
  });

  it('lets a member with the staff permission give out only what they hold, and never touch an owner', async () => {
    await call('POST', '/roles', owner.cookie, { name: 'Team lead', permissions: ['staff', 'dispatch'] });
    const lead = await staffMember(t, 'Team lead');
    const packer = await staffMember(t, 'packer');
    // Their own permissions, or fewer, they may give; more, or the owner role, they may not.
    expect((await call('PATCH', `/staff/${packer.id}`, lead.cookie, { role: 'Team lead' })).statusCode).toBe(200);
    for (const role of ['owner', 'staff']) {
      const answer = await call('PATCH', `/staff/${packer.id}`, lead.cookie, { role });
      expect({ role, status: answer.statusCode }).toEqual({ role, status: 403 });
    }
    const added = await call('POST', '/staff', lead.cookie, {
      email: `o.${Date.now()}@shop.example`,
      name: 'O',
      role: 'owner',
    });
    expect(added.statusCode).toBe(403);
    const wider = await call('POST', '/roles', lead.cookie, { name: 'Wider', permissions: ['refund'] });
    expect(wider.statusCode).toBe(403);
    const ownRole = (await call('GET', '/roles', lead.cookie))
      .json()
      .find((r: { name: string }) => r.name === 'Team lead');
    const widened = await call('PUT', `/roles/${ownRole.id}`, lead.cookie, {
      name: 'Team lead',
      permissions: ['staff', 'settings'],
    });
    expect(widened.statusCode).toBe(403);
    // An owner's account is the owners' alone: no link, no two-factor reset, no change, from anyone else.
    for (const [method, url, payload] of [
      ['POST', `/staff/${owner.id}/set-password-link`, {}],
      ['POST', `/staff/${owner.id}/reset-two-factor`, {}],
      ['PATCH', `/staff/${owner.id}`, { disabled: true }],
    ] as const) {
      const answer = await call(method, url, lead.cookie, payload);
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 403 });
    }
  });

  it('keeps a member with the staff permission off the account of anyone who holds more than they do', async () => {
    // An outside attack: a lead holding staff and dispatch reset a richer colleague's two-factor,
    // took a set-password link for them and signed in as them.
    await call('POST', '/roles', owner.cookie, { name: 'Floor lead', permissions: ['staff', 'dispatch'] });
    await call('POST', '/roles', owner.cookie, {
      name: 'Bookkeeper',
      permissions: ['dispatch', 'refund', 'customers'],
    });
    const lead = await staffMember(t, 'Floor lead');
    const bookkeeper = await staffMember(t, 'Bookkeeper');
    const packer = await staffMember(t, 'packer');
    for (const [method, url, payload] of [
      ['POST', `/staff/${bookkeeper.id}/set-password-link`, {}],
      ['POST', `/staff/${bookkeeper.id}/reset-two-factor`, {}],
      ['PATCH', `/staff/${bookkeeper.id}`, { disabled: true }],
      ['PATCH', `/staff/${bookkeeper.id}`, { role: 'packer' }],
    ] as const) {
      const answer = await call(method, url, lead.cookie, payload);
      expect({ url, payload, status: answer.statusCode }).toEqual({ url, payload, status: 403 });
    }
    expect((await call('GET', '/customers', bookkeeper.cookie)).statusCode).toBe(200);
    // A member holding no more than they do is theirs to look after.
    expect((await call('POST', `/staff/${packer.id}/set-password-link`, lead.cookie, {})).statusCode).toBe(200);
  });
});
