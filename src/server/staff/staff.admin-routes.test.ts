import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { STAFF_PASSWORD, staffCookieOf, staffMember } from '../../../test/helpers/staff.ts';
import { createStaffService } from './staff.service.ts';
import { totpCodeAt } from './totp.ts';

let ipCounter = 0;
const nextIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('back office: staff accounts, sessions and two-factor sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, cookie = '') =>
    t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {}, remoteAddress: nextIp() });
  const get = (url: string, cookie = '') =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {}, remoteAddress: nextIp() });
  const service = () =>
    createStaffService(t.db.kysely, { publicUrl: t.config.publicUrl, shopName: async () => 'Test shop' });
  const signIn = (email: string, password = STAFF_PASSWORD, code?: string) =>
    post('/api/admin/sign-in', { email, password, ...(code ? { code } : {}) });

  it('has no password until the set-password link is used, and the link works once', async () => {
    const email = `new.${Date.now()}@shop.example`;
    const { setPasswordUrl } = await service().create({ email, name: 'New Person', role: 'staff' });
    expect(setPasswordUrl).toMatch(/\/admin\/set-password\/[A-Za-z0-9_-]{40,}$/);
    // Nothing signs in to an account nobody has chosen a password for, not even an empty guess.
    for (const guess of [STAFF_PASSWORD, 'password', ' ']) expect((await signIn(email, guess)).statusCode).toBe(401);

    const token = setPasswordUrl.split('/').at(-1)!;
    const weak = await post('/api/admin/set-password', { token, password: 'short', confirm: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toEqual([expect.objectContaining({ field: 'password' })]);
    const set = await post('/api/admin/set-password', { token, password: STAFF_PASSWORD, confirm: STAFF_PASSWORD });
    expect(set.statusCode).toBe(200);
    const again = await post('/api/admin/set-password', {
      token,
      password: 'Another-Pass-Word-1',
      confirm: 'Another-Pass-Word-1',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields).toEqual([expect.objectContaining({ field: 'token' })]);
    expect((await signIn(email)).statusCode).toBe(200);
    expect((await signIn(email, 'Another-Pass-Word-1')).statusCode).toBe(401);
  });

  it('signs in with an httpOnly, SameSite=Strict cookie of its own, and answers a wrong password as an unknown address', async () => {
    const { email } = await staffMember(t, 'staff', { signIn: false });
    const answer = await signIn(email.toUpperCase());
    expect(answer.statusCode).toBe(200);
    const cookie = answer.cookies.find((c) => c.name === 'admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const me = await get('/api/admin/me', staffCookieOf(answer));
    expect(me.json()).toMatchObject({ email, role: 'staff', totpEnabled: false, active: true });

    const wrong = await signIn(email, 'Not-The-Password-1');
    const unknown = await signIn(`nobody.${Date.now()}@shop.example`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('never lets a customer session open the back office', async () => {
    const email = `customer.${Date.now()}@example.com`;
    const password = 'Customer-Pass-Word-3';
    await post('/api/register', {
      titleId: 2,
      email,
      firstname: 'Meera',
      lastname: 'Patel',
      password,
      confirm: password,
    });
    await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
    const customerToken = (await post('/api/sign-in', { username: email, password })).json() as string;
    expect(customerToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    for (const headers of [
      { cookie: `sid=${customerToken}` },
      { cookie: `admin=${customerToken}` },
      { authorization: `Bearer ${customerToken}` },
    ]) {
      const answer = await t.app.inject({ method: 'GET', url: '/api/admin/me', headers, remoteAddress: nextIp() });
      expect(answer.statusCode).toBe(401);
    }
    // Nor does a customer's password sign in to it.
    expect((await signIn(email, password)).statusCode).toBe(401);
  });

  it('ends a session left idle, moves the idle expiry on with each use, and ends every session on sign-out everywhere', async () => {
    const { id, email, cookie } = await staffMember(t, 'staff');
    const idleBefore = await t.db.kysely
      .selectFrom('staff_sessions')
      .select('idle_until')
      .where('staff_id', '=', id)
      .executeTakeFirstOrThrow();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await get('/api/admin/me', cookie)).statusCode).toBe(200);
    const idleAfter = await t.db.kysely
      .selectFrom('staff_sessions')
      .select('idle_until')
      .where('staff_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(idleAfter.idle_until > idleBefore.idle_until).toBe(true);

    await t.db.kysely
      .updateTable('staff_sessions')
      .set({ idle_until: new Date(Date.now() - 1000).toISOString() })
      .where('staff_id', '=', id)
      .execute();
    expect((await get('/api/admin/me', cookie)).statusCode).toBe(401);

    const first = staffCookieOf(await signIn(email));
    const second = staffCookieOf(await signIn(email));
    expect((await post('/api/admin/sign-out-everywhere', {}, first)).statusCode).toBe(200);
    expect((await get('/api/admin/me', first)).statusCode).toBe(401);
    expect((await get('/api/admin/me', second)).statusCode).toBe(401);
  });

  it('asks for a TOTP code once two-factor sign-in is on, and takes each code once', async () => {
    const { email, cookie } = await staffMember(t, 'staff');
    const setup = (await post('/api/admin/me/totp/setup', {}, cookie)).json() as { secret: string; otpauthUrl: string };
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    // Not on until a code proves the app has the secret.
    expect((await signIn(email)).statusCode).toBe(200);
    expect((await post('/api/admin/me/totp/enable', { code: '000000' }, cookie)).statusCode).toBe(400);
    const enableCode = totpCodeAt(setup.secret, new Date());
    expect((await post('/api/admin/me/totp/enable', { code: enableCode }, cookie)).statusCode).toBe(200);

    // Without its code, the right password answers as a wrong one does: the answer must not tell a
    // guesser that the password is right (found by an outside attack).
    const withoutCode = await signIn(email);
    const wrongPassword = await signIn(email, 'Not-The-Password-1');
    expect(withoutCode.statusCode).toBe(401);
    expect(withoutCode.json()).toEqual(wrongPassword.json());
    expect(withoutCode.cookies.find((c) => c.name === 'admin')).toBeUndefined();
    const wrongCode = String((Number(enableCode) + 1) % 1_000_000).padStart(6, '0');
    expect((await signIn(email, STAFF_PASSWORD, wrongCode)).json()).toEqual(wrongPassword.json());
    // The code that turned it on was used already.
    expect((await signIn(email, STAFF_PASSWORD, enableCode)).statusCode).toBe(401);
    const next = totpCodeAt(setup.secret, new Date(Date.now() + 30_000));
    expect((await signIn(email, STAFF_PASSWORD, next)).statusCode).toBe(200);
    expect((await signIn(email, STAFF_PASSWORD, next)).statusCode).toBe(401);
    // A right code with a wrong password is no way in.
    expect((await signIn(email, 'Not-The-Password-1', next)).statusCode).toBe(401);

    // Turning it off asks for the password, not just a session.
    expect((await post('/api/admin/me/totp/disable', { password: 'Not-The-Password-1' }, cookie)).statusCode).toBe(400);
    expect((await post('/api/admin/me/totp/disable', { password: STAFF_PASSWORD }, cookie)).statusCode).toBe(200);
    expect((await signIn(email)).statusCode).toBe(200);
  });

  it('limits guesses at one account from any number of clients', async () => {
    const { email } = await staffMember(t, 'staff', { signIn: false });
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await signIn(email, `Wrong-Guess-Number-${i}`)).statusCode);
    expect(answers.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
    // The right password waits too, from yet another client: the guesses count per account.
    expect((await signIn(email)).statusCode).toBe(429);
  });

  it('lets a browser that signed in to an account before sign in while strangers’ guesses hold it, and only to that account', async () => {
    // A stranger's ten wrong guesses a few minutes apart would otherwise keep an owner out of the
    // back office for as long as they keep sending them.
    // Made here, their passwords chosen from clients of their own, so the per-client limit on
    // set-password that the other tests' members share is left alone.
    const member = async (role: 'owner' | 'staff') => {
      const made = await service().create({
        email: `${role}.device.${Date.now()}@shop.example`,
        name: 'Kept Out',
        role,
      });
      const token = made.setPasswordUrl.split('/').at(-1)!;
      await post('/api/admin/set-password', { token, password: STAFF_PASSWORD, confirm: STAFF_PASSWORD });
      return made.member;
    };
    const { email } = await member('owner');
    const other = await member('staff');
    const firstVisit = await signIn(email);
    expect(firstVisit.statusCode).toBe(200);
    const device = firstVisit.cookies
      .filter((c) => c.name !== 'admin' && c.name !== 'XSRF-TOKEN')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');

    for (let i = 0; i < 12; i++) await signIn(email, `Wrong-Guess-Number-${i}`);
    for (let i = 0; i < 12; i++) await signIn(other.email, `Wrong-Guess-Number-${i}`);
    expect((await signIn(email)).statusCode).toBe(429);

    const fromKnownBrowser = await post('/api/admin/sign-in', { email, password: STAFF_PASSWORD }, device);
    expect(fromKnownBrowser.statusCode).toBe(200);
    // That browser's mark opens nothing for another account the guesses hold.
    const otherAccount = await post('/api/admin/sign-in', { email: other.email, password: STAFF_PASSWORD }, device);
    expect(otherAccount.statusCode).toBe(429);
    // Nor does it buy its holder unlimited guesses: it has a budget of its own.
    const guesses = [];
    for (let i = 0; i < 12; i++)
      guesses.push(
        (await post('/api/admin/sign-in', { email, password: `Wrong-Guess-Number-${i}` }, device)).statusCode,
      );
    expect(guesses.slice(-2)).toEqual([429, 429]);
  });

  it('lets an owner add staff, change roles and disable accounts, keeping one owner, and records each action', async () => {
    const owner = await staffMember(t, 'owner');
    const added = await post(
      '/api/admin/staff',
      { email: `added.${Date.now()}@shop.example`, name: 'Added Person', role: 'staff' },
      owner.cookie,
    );
    expect(added.statusCode).toBe(200);
    const { member, setPasswordUrl } = added.json();
    expect(setPasswordUrl).toContain('/admin/set-password/');
    const duplicate = await post(
      '/api/admin/staff',
      { email: member.email.toUpperCase(), name: 'Again', role: 'staff' },
      owner.cookie,
    );
    expect(duplicate.statusCode).toBe(409);

    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${member.id}`,
      payload: { role: 'owner' },
      headers: { cookie: owner.cookie },
    });
    expect(promoted.json()).toMatchObject({ role: 'owner' });

    // Every owner but one disabled: the last one cannot be.
    const owners = await t.db.kysely
      .selectFrom('staff')
      .select('id')
      .where('role', '=', 'owner')
      .where('id', '!=', owner.id)
      .execute();
    for (const other of owners) {
      await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/staff/${other.id}`,
        payload: { disabled: true },
        headers: { cookie: owner.cookie },
      });
    }
    const lastOwner = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${owner.id}`,
      payload: { role: 'staff' },
      headers: { cookie: owner.cookie },
    });
    expect(lastOwner.statusCode).toBe(409);

    const log = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'staff')
      .where('entity_id', '=', String(member.id))
      .orderBy('id')
      .execute();
    expect(log.map((entry) => entry.action)).toEqual(['staff.create', 'staff.change', 'staff.change']);
    expect(log[1]).toMatchObject({ staff_email: owner.email });
    expect(JSON.parse(log[1]!.before!)).toEqual({ role: 'staff', disabled: false });
    expect(JSON.parse(log[1]!.after!)).toEqual({ role: 'owner', disabled: false });
  });

  it('keeps an owner who can sign in: one still without a password does not count', async () => {
    const owner = await staffMember(t, 'owner');
    // Every other owner disabled, then a new owner who has not chosen a password yet.
    const others = await t.db.kysely
      .selectFrom('staff')
      .select('id')
      .where('role', '=', 'owner')
      .where('id', '!=', owner.id)
      .execute();
    for (const other of others) {
      await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/staff/${other.id}`,
        payload: { disabled: true },
        headers: { cookie: owner.cookie },
      });
    }
    const added = await post(
      '/api/admin/staff',
      { email: `owner2.${Date.now()}@shop.example`, name: 'Owner Two', role: 'owner' },
      owner.cookie,
    );
    expect(added.json().member).toMatchObject({ role: 'owner', active: false });
    const demoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${owner.id}`,
      payload: { role: 'staff' },
      headers: { cookie: owner.cookie },
    });
    expect(demoted.statusCode).toBe(409);
  });

  it('keeps one owner who can sign in when the last two demote each other at the same moment', async () => {
    // Under READ COMMITTED each change read "two owners" before either wrote: both went through and
    // the shop was left with none. Raced many times, as one lucky ordering proves nothing.
    const a = await staffMember(t, 'owner');
    const b = await staffMember(t, 'owner');
    const activeOwners = async () =>
      (
        await t.db.kysely
          .selectFrom('staff')
          .select('id')
          .where('role', '=', 'owner')
          .where('disabled_at', 'is', null)
          .where('password_hash', 'is not', null)
          .execute()
      ).map((row) => row.id);
    const demote = (by: { cookie: string }, id: number) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/staff/${id}`,
        payload: { role: 'staff' },
        headers: { cookie: by.cookie },
      });
    const rounds: Array<{ statuses: number[]; ownersLeft: number }> = [];
    for (let round = 0; round < 20; round++) {
      // Set-up straight in the table: a and b the only owners, both able to sign in.
      await t.db.kysely
        .updateTable('staff')
        .set({ role: 'staff' })
        .where('role', '=', 'owner')
        .where('id', 'not in', [a.id, b.id])
        .execute();
      await t.db.kysely.updateTable('staff').set({ role: 'owner' }).where('id', 'in', [a.id, b.id]).execute();
      const answers = await Promise.all([demote(a, b.id), demote(b, a.id)]);
      rounds.push({
        statuses: answers.map((answer) => answer.statusCode).sort(),
        ownersLeft: (await activeOwners()).length,
      });
    }
    // Each time exactly one went through; the other was refused (409), or found itself no longer an owner (403).
    expect(rounds).toEqual(rounds.map(() => ({ statuses: [200, expect.toBeOneOf([403, 409])], ownersLeft: 1 })));
  });

  it('ends a disabled member’s set-password links, and its sessions', async () => {
    const owner = await staffMember(t, 'owner');
    const added = await post(
      '/api/admin/staff',
      { email: `dis.${Date.now()}@shop.example`, name: 'Dis Abled', role: 'staff' },
      owner.cookie,
    );
    const { member, setPasswordUrl } = added.json();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${member.id}`,
      payload: { disabled: true },
      headers: { cookie: owner.cookie },
    });
    const token = setPasswordUrl.split('/').at(-1);
    const used = await post('/api/admin/set-password', { token, password: STAFF_PASSWORD, confirm: STAFF_PASSWORD });
    expect(used.statusCode).toBe(400);
  });

  it('limits guesses at the password that turns two-factor sign-in off, per account', async () => {
    const { cookie } = await staffMember(t, 'staff');
    const setup = (await post('/api/admin/me/totp/setup', {}, cookie)).json() as { secret: string };
    await post('/api/admin/me/totp/enable', { code: totpCodeAt(setup.secret, new Date()) }, cookie);
    const answers = [];
    for (let i = 0; i < 12; i++)
      answers.push((await post('/api/admin/me/totp/disable', { password: `Wrong-Guess-${i}-x` }, cookie)).statusCode);
    expect(answers.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
  });

  it('ends a disabled member’s sessions at once', async () => {
    const owner = await staffMember(t, 'owner');
    const member = await staffMember(t, 'staff');
    expect((await get('/api/admin/me', member.cookie)).statusCode).toBe(200);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/staff/${member.id}`,
      payload: { disabled: true },
      headers: { cookie: owner.cookie },
    });
    expect((await get('/api/admin/me', member.cookie)).statusCode).toBe(401);
    expect((await signIn(member.email)).statusCode).toBe(401);
  });
});
