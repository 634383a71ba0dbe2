import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody, REGISTRATION_PASSWORD } from '../helpers/registration.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The CSRF token is signed with SESSION_SECRET and bound to the browser's sessions
 * (docs/rules.md#security). A plain double submit only asks that cookie and header agree, so
 * anyone who can write a cookie for the shop's domain (a sibling subdomain, a man in the middle on
 * plain HTTP) could plant a token of their choosing and forge a signed-in customer's requests.
 */
describe('signed CSRF tokens', () => {
  let t: TestApp;
  let sid: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    const email = `signed.${Date.now()}@example.com`;
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: email, password: REGISTRATION_PASSWORD },
    });
    sid = signedIn.cookies.find((c) => c.name === 'sid')!.value;
  });
  afterAll(() => t.close());

  /** A state-changing call as a browser sends it: its cookies and the token it echoes. */
  const changeAccount = (cookie: string, token: string) =>
    t.server.inject({
      method: 'POST',
      url: '/api/sign-out',
      headers: { cookie: `${cookie}; XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
      payload: {},
    });
  /** What the shop gives a browser holding these cookies on a page load. */
  const tokenFromPage = async (cookie = '') => {
    const page = await t.server.inject({ method: 'GET', url: '/api/product-types', headers: cookie ? { cookie } : {} });
    return page.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
  };

  it('refuses a token the attacker planted, even when cookie and header agree', async () => {
    for (const planted of [
      'attacker-chosen-token',
      'AAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const answer = await changeAccount(`sid=${sid}`, planted);
      expect({ planted, status: answer.statusCode }).toEqual({ planted, status: 403 });
    }
  });

  it('refuses a good token from another browser: one issued without this session', async () => {
    const attackersOwn = await tokenFromPage();
    expect(attackersOwn).toBeDefined();
    expect((await changeAccount(`sid=${sid}`, attackersOwn!)).statusCode).toBe(403);
  });

  it('accepts the token the shop gave this browser, and a sign-in answers with a new one', async () => {
    const mine = await tokenFromPage(`sid=${sid}`);
    // A browser that already holds its token is not given another on each page.
    expect(await tokenFromPage(`sid=${sid}; XSRF-TOKEN=${mine}`)).toBeUndefined();

    const email = `rotate.${Date.now()}@example.com`;
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    await t.db.kysely.updateTable('customers').set({ verified_at: new Date().toISOString() }).execute();
    const before = (await tokenFromPage())!;
    const signIn = await t.server.inject({
      method: 'POST',
      url: '/api/sign-in',
      headers: { cookie: `XSRF-TOKEN=${before}`, 'x-xsrf-token': before },
      payload: { username: email, password: REGISTRATION_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const newSid = signIn.cookies.find((c) => c.name === 'sid')!.value;
    const renewed = signIn.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(before);
    expect((await changeAccount(`sid=${newSid}`, before)).statusCode).toBe(403);
    expect((await changeAccount(`sid=${newSid}`, renewed!)).statusCode).toBe(200);
  });

  it('gives a new token on the next page when the session the old one was bound to is gone', async () => {
    const bound = (await tokenFromPage(`sid=${sid}`))!;
    // The session cookie ran out in the browser; the token stayed.
    expect(await tokenFromPage(`XSRF-TOKEN=${bound}`)).toEqual(expect.any(String));
  });
});
