import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailQueueDrained, readOutbox } from '../../../test/helpers/outbox.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { STAFF_PASSWORD, staffCookieOf, staffMember } from '../../../test/helpers/staff.ts';
import { totpCodeAt } from './totp.ts';

/**
 * A way back in (issue 37): a forgotten password by e-mail, new staff's link by e-mail, recovery
 * codes beside two-factor sign-in, and an owner's reset of another member's two-factor sign-in.
 */

let ipCounter = 0;
const nextIp = () => `10.3.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('back office: a way back in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, cookie = '', remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {}, remoteAddress });
  const get = (url: string, cookie = '') =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {}, remoteAddress: nextIp() });
  const signIn = (email: string, password = STAFF_PASSWORD, code?: string) =>
    post('/api/admin/sign-in', { email, password, ...(code ? { code } : {}) });
  const mailTo = async (email: string) => {
    await mailQueueDrained(t.db, t.app as never);
    return readOutbox(t.outboxDir).filter((m) => m.to === email);
  };
  const linkIn = (raw: string) => {
    const flat = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    return /\/admin\/set-password\/([A-Za-z0-9_-]{40,})/.exec(flat)?.[1];
  };
  const turnOnTwoFactor = async (cookie: string) => {
    const setup = (await post('/api/admin/me/totp/setup', {}, cookie)).json() as { secret: string; qrSvg: string };
    const enabled = await post('/api/admin/me/totp/enable', { code: totpCodeAt(setup.secret, new Date()) }, cookie);
    expect(enabled.statusCode).toBe(200);
    return { ...setup, recoveryCodes: (enabled.json() as { recoveryCodes: string[] }).recoveryCodes };
  };

  it('answers "forgot password" alike for any address and e-mails a working link only to an active member', async () => {
    const member = await staffMember(t, 'staff');
    const disabled = await staffMember(t, 'staff', { signIn: false });
    const owner = await staffMember(t, 'owner');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${disabled.id}`,
      payload: { disabled: true },
      headers: { cookie: owner.cookie },
    });
    const unknown = `nobody.${Date.now()}@shop.example`;
    const answers = await Promise.all(
      [member.email.toUpperCase(), disabled.email, unknown].map((email) =>
        post('/api/admin/forgot-password', { email }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);

    expect(await mailTo(unknown)).toEqual([]);
    expect(await mailTo(disabled.email)).toEqual([]);
    const [mail] = await mailTo(member.email);
    expect(mail?.subject).toMatch(/password/i);
    const token = linkIn(mail!.raw);
    expect(token).toBeDefined();

    // A session signed in elsewhere ends once the link is used; the link works once.
    const other = staffCookieOf(await signIn(member.email));
    const newPassword = 'Another-Tabla-Word-5';
    expect(
      (await post('/api/admin/set-password', { token, password: newPassword, confirm: newPassword })).statusCode,
    ).toBe(200);
    expect((await get('/api/admin/me', other)).statusCode).toBe(401);
    expect((await get('/api/admin/me', member.cookie)).statusCode).toBe(401);
    expect(
      (await post('/api/admin/set-password', { token, password: newPassword, confirm: newPassword })).statusCode,
    ).toBe(400);
    expect((await signIn(member.email, newPassword)).statusCode).toBe(200);

    const log = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('entity_type', '=', 'staff')
      .where('entity_id', '=', String(member.id))
      .orderBy('id')
      .execute();
    expect(log.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['staff.forgot-password', 'staff.set-password']),
    );
  });

  it('limits "forgot password" per client like the other sign-in routes', async () => {
    const ip = '10.4.0.1';
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await post('/api/admin/forgot-password', { email: `x${i}@shop.example` }, '', ip)).statusCode);
    expect(statuses.slice(0, 5).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('sends one member at most three "forgot password" links an hour, from any number of clients', async () => {
    const { email } = await staffMember(t, 'staff', { signIn: false });
    for (let i = 0; i < 5; i++) expect((await post('/api/admin/forgot-password', { email })).statusCode).toBe(200);
    expect(await mailTo(email)).toHaveLength(3);
  });

  it('e-mails new staff their set-password link when an owner adds them, and still shows it', async () => {
    const owner = await staffMember(t, 'owner');
    const email = `emailed.${Date.now()}@shop.example`;
    const added = await post('/api/admin/staff', { email, name: 'Mailed Person', role: 'staff' }, owner.cookie);
    expect(added.statusCode).toBe(200);
    const shown = (added.json() as { setPasswordUrl: string }).setPasswordUrl.split('/').at(-1);
    const [mail] = await mailTo(email);
    expect(mail).toBeDefined();
    expect(linkIn(mail!.raw)).toBe(shown);
  });

  it('shows a QR code for two-factor set-up and gives ten single-use recovery codes, stored hashed', async () => {
    const { id, email, cookie } = await staffMember(t, 'staff');
    const { qrSvg, recoveryCodes } = await turnOnTwoFactor(cookie);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await t.db.kysely
      .selectFrom('staff_recovery_codes')
      .select('code_hash')
      .where('staff_id', '=', id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(stored.map((s) => s.code_hash)).not.toContain(code);

    // In place of the app's code, once each; with the right password only.
    const [first, second] = recoveryCodes;
    expect((await signIn(email, 'Not-The-Password-1', first)).statusCode).toBe(401);
    expect((await signIn(email, STAFF_PASSWORD, first)).statusCode).toBe(200);
    expect((await signIn(email, STAFF_PASSWORD, first)).statusCode).toBe(401);
    expect((await signIn(email, STAFF_PASSWORD, first!.toUpperCase())).statusCode).toBe(401);
    expect((await signIn(email, STAFF_PASSWORD, second!.toUpperCase())).statusCode).toBe(200);

    // New codes (the password asked again) end the old ones.
    expect((await post('/api/admin/me/recovery-codes', { password: 'Wrong-Password-9' }, cookie)).statusCode).toBe(400);
    const renewed = await post('/api/admin/me/recovery-codes', { password: STAFF_PASSWORD }, cookie);
    expect(renewed.statusCode).toBe(200);
    const fresh = (renewed.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect((await signIn(email, STAFF_PASSWORD, recoveryCodes[2])).statusCode).toBe(401);
    expect((await signIn(email, STAFF_PASSWORD, fresh[0])).statusCode).toBe(200);
  });

  it('lets an owner reset another member’s two-factor sign-in, ending their sessions, with an audit entry', async () => {
    const owner = await staffMember(t, 'owner');
    const member = await staffMember(t, 'staff');
    await turnOnTwoFactor(member.cookie);
    expect((await signIn(member.email)).statusCode).toBe(401);
    const session = staffCookieOf(
      await signIn(
        member.email,
        STAFF_PASSWORD,
        totpCodeAt((await getSecret(member.id))!, new Date(Date.now() + 30_000)),
      ),
    );

    // Not for staff, nor on oneself.
    expect((await post(`/api/admin/staff/${member.id}/reset-two-factor`, {}, member.cookie)).statusCode).toBe(403);
    expect((await post(`/api/admin/staff/${owner.id}/reset-two-factor`, {}, owner.cookie)).statusCode).toBe(409);

    const reset = await post(`/api/admin/staff/${member.id}/reset-two-factor`, {}, owner.cookie);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ id: member.id, totpEnabled: false });
    expect((await get('/api/admin/me', session)).statusCode).toBe(401);
    expect((await get('/api/admin/me', member.cookie)).statusCode).toBe(401);
    expect((await signIn(member.email)).statusCode).toBe(200);
    const codes = await t.db.kysely
      .selectFrom('staff_recovery_codes')
      .select('id')
      .where('staff_id', '=', member.id)
      .execute();
    expect(codes).toEqual([]);
    const entry = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'staff.totp-reset')
      .where('entity_id', '=', String(member.id))
      .executeTakeFirst();
    expect(entry).toMatchObject({ staff_email: owner.email });
  });

  const getSecret = async (id: number) =>
    (await t.db.kysely.selectFrom('staff').select('totp_secret').where('id', '=', id).executeTakeFirstOrThrow())
      .totp_secret;

  it('does not let a stranger\'s "forgot password" end a new member\'s link', async () => {
    // An outside attack: the forgot-password form needs no sign-in, and its link used to end every
    // earlier one, so anyone could void an invitation or a staff:reset link by naming its address.
    const owner = await staffMember(t, 'owner');
    const email = `invited.${Date.now()}@shop.example`;
    const added = await post('/api/admin/staff', { email, name: 'Invited Person', role: 'staff' }, owner.cookie);
    const token = (added.json() as { setPasswordUrl: string }).setPasswordUrl.split('/').at(-1)!;
    expect((await post('/api/admin/forgot-password', { email })).statusCode).toBe(200);
    await mailTo(email);
    const set = await post('/api/admin/set-password', { token, password: STAFF_PASSWORD, confirm: STAFF_PASSWORD });
    expect(set.statusCode, set.body).toBe(200);
    // Using one link ends the others: the forgot-password mail's link is spent too.
    const mails = await mailTo(email);
    const forgotLink = mails.map((mail) => linkIn(mail.raw)).find((link) => link && link !== token);
    expect(forgotLink).toBeDefined();
    const second = await post('/api/admin/set-password', {
      token: forgotLink,
      password: STAFF_PASSWORD,
      confirm: STAFF_PASSWORD,
    });
    expect(second.statusCode).toBe(400);
  });

  it('gives no link to a disabled member, and none made before survives their being enabled again', async () => {
    const owner = await staffMember(t, 'owner');
    const member = await staffMember(t, 'staff', { signIn: false });
    const patch = (payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/staff/${member.id}`,
        payload,
        headers: { cookie: owner.cookie },
      });
    expect((await patch({ disabled: true })).statusCode).toBe(200);
    const link = await post(`/api/admin/staff/${member.id}/set-password-link`, {}, owner.cookie);
    expect(link.statusCode).toBe(409);
    expect(link.json().error.message).toMatch(/disabled/);
    expect((await patch({ disabled: false })).statusCode).toBe(200);
    // A link made now works as ever.
    const fresh = await post(`/api/admin/staff/${member.id}/set-password-link`, {}, owner.cookie);
    expect(fresh.statusCode).toBe(200);
  });
});
