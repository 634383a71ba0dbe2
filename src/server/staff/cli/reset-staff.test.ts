import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../../../../test/helpers/run-process.ts';
import { STAFF_PASSWORD, staffMember } from '../../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { totpCodeAt } from '../totp.ts';

/**
 * `npm run staff:reset`: the way back in for a sole owner who has lost both their password and
 * their phone, run on the shop's machine, as `npm run staff:create` makes the first owner.
 */
describe('npm run staff:reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const reset = (...args: string[]) =>
    runScript('src/server/staff/cli/reset-staff.ts', { DATABASE_URL: t.database.processUrl }, args);
  const setPassword = (url: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/set-password',
      payload: { token: url.split('/').at(-1), password, confirm: password },
      remoteAddress: '10.6.0.1',
    });
  const signIn = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/sign-in',
      payload: { email, password },
      remoteAddress: '10.6.0.2',
    });

  it('prints a new set-password link, and with --no-two-factor turns two-factor sign-in off', async () => {
    const owner = await staffMember(t, 'owner');
    const setup = (
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/me/totp/setup',
        headers: { cookie: owner.cookie },
        payload: {},
      })
    ).json() as { secret: string };
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/me/totp/enable',
      headers: { cookie: owner.cookie },
      payload: { code: totpCodeAt(setup.secret, new Date()) },
    });

    // The password alone: two-factor stays on.
    const plain = await reset('--email', owner.email.toUpperCase());
    expect(plain.code).toBe(0);
    const link = /https?:\/\/\S+\/admin\/set-password\/\S+/.exec(plain.stdout)?.[0];
    expect(link).toBeDefined();
    expect(plain.stdout).toContain('two-factor sign-in stays on');
    const first = 'Lost-Phone-Tabla-Word-1';
    expect((await setPassword(link!, first)).statusCode).toBe(200);
    expect((await signIn(owner.email, first)).statusCode).toBe(401);
    // The owner's old session ended with the new password.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(401);

    const both = await reset('--email', owner.email, '--no-two-factor');
    expect(both.code).toBe(0);
    expect(both.stdout).toContain('two-factor sign-in is off');
    const second = 'Lost-Phone-Tabla-Word-2';
    expect(
      (await setPassword(/https?:\/\/\S+\/admin\/set-password\/\S+/.exec(both.stdout)![0], second)).statusCode,
    ).toBe(200);
    expect((await signIn(owner.email, second)).statusCode).toBe(200);

    const log = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'staff_email', 'after'])
      .where('entity_id', '=', String(owner.id))
      .where('action', '=', 'staff.reset-access')
      .orderBy('id')
      .execute();
    expect(log.map((entry) => JSON.parse(entry.after!))).toEqual([{ twoFactorOff: false }, { twoFactorOff: true }]);
    expect(STAFF_PASSWORD).not.toBe(second);
  });

  it('says so, and fails, for an address with no account or none given', async () => {
    const unknown = await reset('--email', `nobody.${Date.now()}@shop.example`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No staff account has this e-mail address');
    const none = await reset();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: npm run staff:reset');
  });
});
