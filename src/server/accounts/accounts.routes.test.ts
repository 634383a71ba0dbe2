import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { registrationBody } from '../../../test/helpers/registration.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { messages } from '../../contract/messages.ts';
import { hashToken, newToken } from './tokens.ts';

const PASSWORD = 'Sitar-and-Tabla-42';
let ipCounter = 0;
/** Each call from an address of its own, so only the rate-limit tests meet the limits. */
const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('accounts: registration, activation, sign-in, sessions, CSRF and password reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url, payload, headers, remoteAddress });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: nextIp() });
  const linkFor = async (to: string, path: string) => {
    const mail = (await deliveredMail(t)).filter((m) => m.to === to).at(-1);
    return new RegExp(`/${path}/([A-Za-z0-9_-]+)`).exec(decodeQuotedPrintable(mail?.raw ?? ''))?.[1];
  };
  let emails = 0;
  const newEmail = () => `customer${++emails}.${Date.now()}@example.com`;
  const registration = (email: string, overrides: object = {}) =>
    registrationBody(email, { firstname: 'Priya', lastname: 'Sharma', password: PASSWORD, ...overrides });

  async function verifiedCustomer(): Promise<string> {
    const email = newEmail();
    expect((await post('/api/register', registration(email))).json()).toEqual({ errorCode: 0 });
    expect((await post('/api/activate', { token: await linkFor(email, 'verify-account') })).statusCode).toBe(200);
    return email;
  }

  async function signIn(email: string, password = PASSWORD) {
    return post('/api/sign-in', { username: email, password });
  }

  it.each([
    ['a missing first name', { firstname: '' }, 1],
    ['no title', { titleId: null }, 1],
    ['a title the shop does not have', { titleId: 999 }, 1],
    ['a malformed e-mail address', { email: 'not-an-address' }, 1],
    ['a short password', { password: 'short', confirm: 'short' }, 2],
    ['a common password', { password: 'password123', confirm: 'password123' }, 2],
    ['a confirmation that differs', { confirm: `${PASSWORD}!` }, 3],
  ])('answers registration with %s with errorCode %i', async (_, overrides, code) => {
    expect((await post('/api/register', registration(newEmail(), overrides))).json()).toEqual({ errorCode: code });
  });

  it('registers, e-mails a single-use verification link, and answers a second registration as the first', async () => {
    const email = newEmail();
    expect((await post('/api/register', registration(email.toUpperCase()))).json()).toEqual({ errorCode: 0 });
    const token = await linkFor(email, 'verify-account');
    // No longer code 4, which told anyone that the address has an account (registration-known-address.test.ts).
    expect((await post('/api/register', registration(email))).json()).toEqual({ errorCode: 0 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Not verified yet: no sign-in, and the right password is told so.
    expect((await signIn(email)).statusCode).toBe(403);
    expect((await post('/api/activate', { token })).json()).toEqual({ ok: true });
    expect((await post('/api/activate', { token })).statusCode).toBe(400);
    expect((await signIn(email)).statusCode).toBe(200);
    const stored = await t.db.kysely
      .selectFrom('customers')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored.password_hash).not.toContain(PASSWORD);
  });

  it('refuses an expired or unknown activation link', async () => {
    const email = newEmail();
    await post('/api/register', registration(email));
    await t.db.kysely.updateTable('account_tokens').set({ expires_at: '2000-01-01T00:00:00.000Z' }).execute();
    expect((await post('/api/activate', { token: await linkFor(email, 'verify-account') })).statusCode).toBe(400);
    expect((await post('/api/activate', { token: 'no-such-token' })).statusCode).toBe(400);
  });

  it('signs in with a token answer and a session cookie, and the same refusal for a wrong password or an unknown address', async () => {
    const email = await verifiedCustomer();
    const ok = await signIn(email);
    expect(ok.statusCode).toBe(200);
    const token = ok.json() as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = ok.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', path: '/' });
    const wrong = await signIn(email, 'Wrong-password-99');
    const unknown = await signIn('nobody@example.com', PASSWORD);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('tells an unactivated account so only after the right password, and answers the attack like any refusal', async () => {
    const email = newEmail();
    await post('/api/register', registration(email));
    const firstLink = await linkFor(email, 'verify-account');
    const unknown = await signIn(`nobody.${Date.now()}@example.com`, PASSWORD);
    const wrong = await signIn(await verifiedCustomer(), 'Wrong-password-99');
    const unactivatedWrong = await signIn(email, 'Wrong-password-99');
    for (const answer of [unknown, wrong, unactivatedWrong]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.body).toBe(unknown.body);
      expect(answer.headers['content-type']).toBe(unknown.headers['content-type']);
    }
    const unactivated = await signIn(email);
    expect(unactivated.statusCode).toBe(403);
    expect(unactivated.json()).toEqual({
      error: { code: 'ACCOUNT_NOT_ACTIVATED', message: messages.login.notActivated },
    });
    expect(unactivated.cookies.find((c) => c.name === 'sid')).toBeUndefined();

    // The resend needs the password too: a wrong one, or an unknown address, gets the sign-in refusal.
    const resendWrong = await post('/api/resend-activation', { username: email, password: 'Wrong-password-99' });
    const resendUnknown = await post('/api/resend-activation', { username: 'nobody@example.com', password: PASSWORD });
    expect(resendWrong.statusCode).toBe(401);
    expect(resendWrong.body).toBe(unknown.body);
    expect(resendUnknown.body).toBe(unknown.body);
    expect(await linkFor(email, 'verify-account')).toBe(firstLink);

    const resent = await post('/api/resend-activation', { username: email.toUpperCase(), password: PASSWORD });
    expect(resent.json()).toEqual({ ok: true });
    const secondLink = await linkFor(email, 'verify-account');
    expect(secondLink).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secondLink).not.toBe(firstLink);
    // A fresh link ends the old one, as a reset link does.
    expect((await post('/api/activate', { token: firstLink })).statusCode).toBe(400);
    expect((await post('/api/activate', { token: secondLink })).json()).toEqual({ ok: true });
    expect((await signIn(email)).statusCode).toBe(200);
  });

  it('takes about as long to refuse an unknown address, a wrong password and an unactivated account with a wrong password', async () => {
    const email = newEmail();
    await post('/api/register', registration(email));
    const known = await verifiedCustomer();
    const timed = async (username: string) => {
      const start = performance.now();
      await signIn(username, 'Wrong-password-99');
      return performance.now() - start;
    };
    const median = async (username: string) => {
      const times = [];
      for (let i = 0; i < 5; i++) times.push(await timed(username));
      return times.sort((a, b) => a - b)[2] ?? 0;
    };
    const [unknown, wrong, unactivated] = [
      await median('nobody@example.com'),
      await median(known),
      await median(email),
    ];
    const slowest = Math.max(unknown, wrong, unactivated);
    // Each refusal verifies one scrypt hash; none skips it.
    expect(Math.min(unknown, wrong, unactivated)).toBeGreaterThan(slowest / 3);
  });

  it('limits resending activation links from one address', async () => {
    const ip = '192.0.2.81';
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post('/api/resend-activation', { username: 'x@example.com', password: 'nope' }, {}, ip)).statusCode,
      );
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses[3]).toBe(429);
  });

  it('answers who-am-i and is-authenticated by cookie or bearer, and 401 after sign-out', async () => {
    const email = await verifiedCustomer();
    const token = (await signIn(email)).json() as string;
    expect((await get('/api/who-am-i', { cookie: `sid=${token}` })).json()).toEqual({
      firstname: 'Priya',
      lastname: 'Sharma',
    });
    expect((await get('/api/who-am-i', { authorization: `Bearer ${token}` })).json()).toEqual({
      firstname: 'Priya',
      lastname: 'Sharma',
    });
    expect((await get('/api/is-authenticated', { cookie: `sid=${token}` })).statusCode).toBe(200);
    expect((await get('/api/who-am-i')).statusCode).toBe(401);
    expect((await get('/api/is-authenticated')).statusCode).toBe(401);
    expect((await post('/api/sign-out', {}, { cookie: `sid=${token}` })).statusCode).toBe(200);
    expect((await get('/api/who-am-i', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('refuses a state-changing call without the CSRF header, or with the wrong one, with a 403', async () => {
    const email = await verifiedCustomer();
    const bare = await t.server.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: email, password: PASSWORD },
    });
    expect(bare.statusCode).toBe(403);
    const wrong = await t.server.inject({
      method: 'POST',
      url: '/api/verify-basket',
      payload: { items: [] },
      headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('CSRF_TOKEN_MISSING_OR_WRONG');
    // A page load hands out the cookie to echo.
    const page = await t.server.inject({ method: 'GET', url: '/api/brands' });
    const csrfCookie = page.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(csrfCookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(csrfCookie?.httpOnly).toBeFalsy();
    // PayPal's IPN is checked by its own protocol instead.
    const ipn = await t.server.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: 'txn_id=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ipn.statusCode).not.toBe(403);
  });

  it('resets a password by a single-use e-mailed link, ending every session, with the same answer for unknown addresses', async () => {
    const email = await verifiedCustomer();
    const oldToken = (await signIn(email)).json() as string;
    const before = (await deliveredMail(t)).length;
    expect((await post('/api/forgot-password', { email: 'nobody@example.com' })).json()).toEqual({ ok: true });
    expect((await deliveredMail(t)).length).toBe(before);
    expect((await post('/api/forgot-password', { email })).json()).toEqual({ ok: true });
    const token = await linkFor(email, 'reset-password');
    expect((await post('/api/reset-password', { token, password: 'short', confirm: 'short' })).json()).toEqual({
      ok: false,
      errorCode: 2,
    });
    const newPassword = 'Harmonium-Kirtan-2026';
    expect((await post('/api/reset-password', { token, password: newPassword, confirm: newPassword })).json()).toEqual({
      ok: true,
      errorCode: 0,
    });
    expect(
      (await post('/api/reset-password', { token, password: newPassword, confirm: newPassword })).json(),
    ).toMatchObject({ ok: false });
    expect((await get('/api/who-am-i', { authorization: `Bearer ${oldToken}` })).statusCode).toBe(401);
    expect((await signIn(email)).statusCode).toBe(401);
    expect((await signIn(email, newPassword)).statusCode).toBe(200);
  });

  it('ends every earlier reset link when a new one is sent, and when a reset is completed', async () => {
    const email = await verifiedCustomer();
    const reset = async (token: string | undefined, password: string) =>
      (await post('/api/reset-password', { token, password, confirm: password })).json();
    const newLink = async () => {
      expect((await post('/api/forgot-password', { email })).json()).toEqual({ ok: true });
      return await linkFor(email, 'reset-password');
    };
    // Two links asked for in turn: only the newer one works.
    const first = await newLink();
    const second = await newLink();
    expect(second).not.toBe(first);
    expect(await reset(first, 'Bansuri-Morning-Raga-1')).toMatchObject({ ok: false });
    expect(await reset(second, 'Bansuri-Morning-Raga-2')).toEqual({ ok: true, errorCode: 0 });
    // After a completed reset, no link sent before it works, whichever order they were used in.
    const third = await newLink();
    const fourth = await newLink();
    expect(await reset(fourth, 'Bansuri-Morning-Raga-3')).toEqual({ ok: true, errorCode: 0 });
    expect(await reset(third, 'Bansuri-Morning-Raga-4')).toMatchObject({ ok: false });
    expect(await reset(first, 'Bansuri-Morning-Raga-5')).toMatchObject({ ok: false });
    expect((await signIn(email, 'Bansuri-Morning-Raga-3')).statusCode).toBe(200);
    // Two links live at once (two requests racing each other): completing either ends the other.
    const fifth = await newLink();
    const customer = await t.db.kysely
      .selectFrom('customers')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const racing = newToken();
    await t.db.kysely
      .insertInto('account_tokens')
      .values({
        customer_id: customer.id,
        purpose: 'reset',
        token_hash: hashToken(racing),
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        used_at: null,
      })
      .execute();
    expect(await reset(fifth, 'Bansuri-Morning-Raga-6')).toEqual({ ok: true, errorCode: 0 });
    expect(await reset(racing, 'Bansuri-Morning-Raga-7')).toMatchObject({ ok: false });
    expect((await signIn(email, 'Bansuri-Morning-Raga-6')).statusCode).toBe(200);
  });

  it('stores a contact message, e-mails the shop and acknowledges the sender', async () => {
    const response = await post('/api/contact', {
      email: 'Visitor@Example.com',
      name: 'Visitor',
      phone: '0121 496 0002',
      message: 'Do you repair tablas?',
    });
    expect(response.json()).toEqual({ ok: true });
    const stored = await t.db.kysely
      .selectFrom('contact_messages')
      .selectAll()
      .where('email', '=', 'visitor@example.com')
      .execute();
    expect(stored).toHaveLength(1);
    const mail = await deliveredMail(t);
    expect(mail.some((m) => m.to === t.config.shop.email && m.subject === 'Enquiry from Visitor')).toBe(true);
    expect(
      mail.some(
        (m) =>
          m.to.toLowerCase() === 'visitor@example.com' && m.subject === `We have your message - ${t.config.shop.name}`,
      ),
    ).toBe(true);
    const bad = await post('/api/contact', { email: 'nope', name: '', phone: '', message: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.map((f: { field: string }) => f.field)).toEqual(
      expect.arrayContaining(['email', 'name', 'phone', 'message']),
    );
  });

  it('saves My Account for real, shows the customer only their own orders, and changes the password', async () => {
    await checkoutFixtures(t.db);
    const email = await verifiedCustomer();
    const token = (await signIn(email)).json() as string;
    const auth = { authorization: `Bearer ${token}` };
    // A new account has no saved addresses yet, and says so rather than failing.
    const account = await get('/api/account', auth);
    expect(account.json()).toMatchObject({
      email,
      billingAddress: { line1: '', countryId: null },
    });
    expect(account.headers['cache-control']).toBe('no-store');
    const address = {
      line1: '7 Temple Road',
      line2: 'Handsworth',
      line3: '',
      postcode: 'b21 9aa',
      townCity: 'Birmingham',
      countryId: 1,
    };
    const details = {
      titleId: 1,
      firstname: 'Priya',
      lastname: 'Sharma-Jones',
      contactNumber: '0121 496 0100',
      billingAddress: address,
      deliveryAddress: { ...address, line1: '9 Temple Road' },
    };
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/account',
      payload: details,
      headers: auth,
      remoteAddress: nextIp(),
    });
    expect(saved.statusCode).toBe(200);
    expect((await get('/api/account', auth)).json()).toMatchObject({
      email,
      lastname: 'Sharma-Jones',
      billingAddress: { postcode: 'B21 9AA', line2: 'Handsworth' },
      deliveryAddress: { line1: '9 Temple Road' },
    });
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/account',
      payload: { ...details, deliveryAddress: { ...address, line2: '' } },
      headers: auth,
      remoteAddress: nextIp(),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields.map((f: { field: string }) => f.field)).toContain('deliveryAddress.line2');
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/account', payload: details, remoteAddress: nextIp() }))
        .statusCode,
    ).toBe(401);
    // A title or country the form does not offer is refused, naming it, and nothing is saved.
    for (const [change, field] of [
      [{ titleId: 999 }, 'titleId'],
      [{ billingAddress: { ...address, countryId: 999 } }, 'billingAddress.countryId'],
      [{ deliveryAddress: { ...address, countryId: 999 } }, 'deliveryAddress.countryId'],
    ] as const) {
      const refused = await t.app.inject({
        method: 'PUT',
        url: '/api/account',
        payload: { ...details, ...change, lastname: 'Not Saved' },
        headers: auth,
        remoteAddress: nextIp(),
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await get('/api/account', auth)).json()).toMatchObject({ lastname: 'Sharma-Jones' });

    // An order placed while signed in belongs to the account; a guest's does not.
    const fx = await checkoutFixtures(t.db);
    const product = await fx.product(1500, 5);
    await post('/api/basket', commitBody([{ productStockId: product.stockId, requestedQty: 2 }]), auth);
    await post('/api/basket', commitBody([{ productStockId: product.stockId, requestedQty: 1 }]));
    const orders = (await get('/api/account/orders', auth)).json();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      status: 'pending_payment',
      itemsTotal: 3000,
      total: 3995,
      lines: [{ quantity: 2, lineTotal: 3000 }],
    });
    expect((await get('/api/account/orders')).statusCode).toBe(401);

    const other = (await signIn(email)).json() as string;
    const newPassword = 'Ghungroo-Kathak-2026';
    const wrong = await post(
      '/api/account/password',
      { currentPassword: 'nope-nope-nope', password: newPassword, confirm: newPassword },
      auth,
    );
    expect(wrong.json()).toMatchObject({ ok: false });
    const changed = await post(
      '/api/account/password',
      { currentPassword: PASSWORD, password: newPassword, confirm: newPassword },
      auth,
    );
    expect(changed.json()).toEqual({ ok: true, errorCode: 0 });
    expect((await get('/api/who-am-i', auth)).statusCode).toBe(200);
    expect((await get('/api/who-am-i', { authorization: `Bearer ${other}` })).statusCode).toBe(401);
    expect((await signIn(email, newPassword)).statusCode).toBe(200);
  });

  it('limits sign-in attempts from one address without holding up another address', async () => {
    const ip = '192.0.2.77';
    // A different address each time, so only the per-client limit counts (the per-account one has
    // its own tests, sign-in-limits.test.ts).
    const attempts = [];
    for (let i = 0; i < 11; i++)
      attempts.push(
        (await post('/api/sign-in', { username: `x${i}@example.com`, password: 'nope' }, {}, ip)).statusCode,
      );
    expect(attempts.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(attempts[10]).toBe(429);
    expect(
      (await post('/api/sign-in', { username: 'x10@example.com', password: 'nope' }, {}, '192.0.2.78')).statusCode,
    ).toBe(401);
  });

  it('limits contact messages and registrations from one address', async () => {
    const ip = '192.0.2.90';
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await post('/api/contact', { email: 'a@example.com', name: 'A', phone: '01214960000', message: 'Hi' }, {}, ip))
          .statusCode,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    const registrations = [];
    for (let i = 0; i < 6; i++)
      registrations.push((await post('/api/register', registration(newEmail(), { firstname: '' }), {}, ip)).statusCode);
    expect(registrations.at(-1)).toBe(429);
  });
});
