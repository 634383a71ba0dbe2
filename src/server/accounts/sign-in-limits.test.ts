import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../../../test/helpers/registration.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const PASSWORD = 'Sarangi-and-Santoor-58';
const ALLOWED = 3;
let ipCounter = 0;
/** A client address of its own for every call: a guesser with many addresses, out of reach of the per-client limit. */
const nextIp = () => `10.31.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('customer sign-in: guesses at one account are limited from every client together', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The shop allows 10 guesses per account in 5 minutes; scaled to 3 here, as RATE_LIMIT_FACTOR
    // scales every limit, so the suite hashes fewer passwords.
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '0.3' } });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, cookie = '') =>
    t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {}, remoteAddress: nextIp() });
  const signIn = (username: string, password = PASSWORD, cookie = '') =>
    post('/api/sign-in', { username, password }, cookie);
  let made = 0;
  const newEmail = () => `guessed${++made}.${Date.now()}@example.com`;

  async function verifiedCustomer(): Promise<string> {
    const email = newEmail();
    expect((await post('/api/register', registrationBody(email, { password: PASSWORD }))).statusCode).toBe(200);
    // Verified straight in the table: the link is the registration tests' business.
    await t.db.kysely
      .updateTable('customers')
      .set({ verified_at: new Date().toISOString() })
      .where('email', '=', email)
      .execute();
    return email;
  }

  /** Two more wrong guesses than the limit allows, each from a client address of its own. */
  async function guesses(username: string, cookie = '') {
    const answers = [];
    for (let i = 0; i < ALLOWED + 2; i++) answers.push(await signIn(username, `Wrong-Guess-Number-${i}`, cookie));
    return answers;
  }

  it('limits guesses at one account from any number of client addresses, and an unknown address alike', async () => {
    const email = await verifiedCustomer();
    const known = await guesses(email);
    // Spelled as a shopper might type it: the same account, the same budget.
    const unknown = await guesses(`  Nobody.${Date.now()}@Example.com `);
    for (const answers of [known, unknown]) {
      expect(answers.map((answer) => answer.statusCode)).toEqual([...Array<number>(ALLOWED).fill(401), 429, 429]);
    }
    // The refusal says nothing of whether the address has an account.
    expect(known.at(-1)!.json()).toEqual(unknown.at(-1)!.json());
    expect(known.at(-1)!.json()).toMatchObject({ error: { code: 'TOO_MANY_REQUESTS' } });
    expect(Number(known.at(-1)!.headers['retry-after'])).toBeGreaterThan(0);

    // The right password waits too, from yet another client; so does the other door that checks it.
    expect((await signIn(email.toUpperCase())).statusCode).toBe(429);
    expect((await post('/api/resend-activation', { username: email, password: PASSWORD })).statusCode).toBe(429);
  });

  it('lets a browser that signed in to the account before sign in while strangers’ guesses hold it, and only to that account', async () => {
    const email = await verifiedCustomer();
    const other = await verifiedCustomer();
    const firstVisit = await signIn(email);
    expect(firstVisit.statusCode).toBe(200);
    const device = firstVisit.cookies
      .filter((c) => !['sid', 'XSRF-TOKEN'].includes(c.name))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    expect(device).not.toBe('');

    await guesses(email);
    await guesses(other);
    expect((await signIn(email)).statusCode).toBe(429);

    expect((await signIn(email, PASSWORD, device)).statusCode).toBe(200);
    // The mark opens nothing for another account the guesses hold.
    expect((await signIn(other, PASSWORD, device)).statusCode).toBe(429);
    // Nor does it buy its holder unlimited guesses: it has a budget of its own.
    const fromDevice = await guesses(email, device);
    expect(fromDevice.slice(-2).map((answer) => answer.statusCode)).toEqual([429, 429]);
  });
});
