import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { registrationBody, REGISTRATION_PASSWORD } from '../../../test/helpers/registration.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * What POST /api/sign-in answers (issue 31, item 10): an API client gets the session token in the
 * answer, to send as `Authorization: Bearer`; a browser, which the page's code drives, gets the
 * session as the httpOnly cookie alone, so no script in the page can read the token.
 */
describe('the sign-in answer, for a browser and for an API client', () => {
  let t: TestApp;
  let ip = 0;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.31.10.${++ip}` });

  async function verifiedCustomer(): Promise<string> {
    const email = `session.${++ip}.${Date.now()}@example.com`;
    expect((await post('/api/register', registrationBody(email))).json()).toEqual({ errorCode: 0 });
    const mail = (await deliveredMail(t)).filter((m) => m.to === email).at(-1);
    const token = /\/verify-account\/([A-Za-z0-9_-]+)/.exec(decodeQuotedPrintable(mail?.raw ?? ''))?.[1];
    expect((await post('/api/activate', { token })).statusCode).toBe(200);
    return email;
  }

  /** What a browser adds to the page's own fetch, and no script can set or remove (Fetch Metadata). */
  const fromThePage = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };

  it('gives a browser the session as the cookie only, not in the answer', async () => {
    const email = await verifiedCustomer();
    const answer = await post('/api/sign-in', { username: email, password: REGISTRATION_PASSWORD }, fromThePage);
    expect(answer.statusCode).toBe(200);
    const cookie = answer.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const token = cookie?.value ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.body).not.toContain(token);
    expect(answer.json()).toBe(true);
    // The cookie is the session.
    const whoAmI = await t.app.inject({ url: '/api/who-am-i', headers: { cookie: `sid=${token}` } });
    expect(whoAmI.json()).toEqual({ firstname: 'Meera', lastname: 'Patel' });
  });

  it.each([
    ['a request from another site', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }],
    ['a navigation', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' }],
    ['Fetch Metadata in any case', { 'Sec-Fetch-Site': 'none' }],
  ])('keeps the token out of the answer for %s too', async (_, headers) => {
    const email = await verifiedCustomer();
    const answer = await post('/api/sign-in', { username: email, password: REGISTRATION_PASSWORD }, headers);
    const token = answer.cookies.find((c) => c.name === 'sid')?.value ?? '';
    // (A request from another site is refused for its CSRF token before it signs anyone in.)
    if (answer.statusCode === 200) expect(token).not.toBe('');
    expect(answer.body).not.toMatch(/"[A-Za-z0-9_-]{43}"/);
  });

  it('still answers an API client with the token, which works as a bearer token', async () => {
    const email = await verifiedCustomer();
    const answer = await post('/api/sign-in', { username: email, password: REGISTRATION_PASSWORD });
    expect(answer.statusCode).toBe(200);
    const token = answer.json() as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const whoAmI = await t.app.inject({ url: '/api/who-am-i', headers: { authorization: `Bearer ${token}` } });
    expect(whoAmI.json()).toEqual({ firstname: 'Meera', lastname: 'Patel' });
  });
});
