import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { registrationBody } from '../../../test/helpers/registration.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let ipCounter = 0;
/** Each call from a client address of its own, as a prober with many addresses would send them. */
const nextIp = () => `10.7.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/**
 * Registration must not tell whether an address has an account (docs/rules.md#accounts-and-sessions):
 * a second registration is answered as a first, and the address's owner is e-mailed instead.
 */
describe('registration of an address that has an account already', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const register = (body: object) =>
    t.app.inject({ method: 'POST', url: '/api/register', payload: body, remoteAddress: nextIp() });
  let made = 0;
  const newEmail = () => `known${++made}.${Date.now()}@example.com`;
  /** The messages sent to an address, oldest first, their bodies decoded. */
  const mailTo = async (email: string) =>
    (await deliveredMail(t))
      .filter((mail) => mail.to === email)
      .map((mail) => ({ subject: mail.subject, body: decodeQuotedPrintable(mail.raw) }));
  const customerRows = (email: string) =>
    t.db.kysely.selectFrom('customers').select(['firstname', 'password_hash']).where('email', '=', email).execute();

  it('answers as for a new address, makes no account, and e-mails the owner how to sign in instead', async () => {
    const email = newEmail();
    const first = await register(registrationBody(email, { firstname: 'Meera' }));
    const [account] = await customerRows(email);
    const second = await register(
      registrationBody(` ${email.toUpperCase()}`, { firstname: 'Mallory', password: 'Another-Pass-Word-77' }),
    );
    const fresh = await register(registrationBody(newEmail()));

    // The same status and body as a first registration: a prober learns nothing from the answer.
    for (const answer of [first, second, fresh]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ errorCode: 0 });
    }
    // Nothing about the account changed: no second one, not the prober's name or password.
    expect(await customerRows(email)).toEqual([account]);

    const mail = await mailTo(email);
    expect(mail).toHaveLength(2);
    expect(mail[0]!.subject).toMatch(/confirm your e-mail address/i);
    expect(mail[1]!.subject).toMatch(/tried to register/i);
    const { body } = mail[1]!;
    expect(body).toContain(`${t.config.publicUrl}/login`);
    expect(body).toContain(`${t.config.publicUrl}/forgotpassword`);
    // No link that would act on the account, and nothing of what the prober typed.
    expect(body).not.toMatch(/verify-account|reset-password/);
    expect(body).not.toContain('Mallory');
  });

  it('sends the owner at most three such messages a day, however many registrations are tried', async () => {
    const email = newEmail();
    await register(registrationBody(email));
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await register(registrationBody(email)));
    expect(answers.map((answer) => answer.json())).toEqual(Array(6).fill({ errorCode: 0 }));
    const tried = (await mailTo(email)).filter((mail) => /tried to register/i.test(mail.subject));
    expect(tried).toHaveLength(3);
  });

  it('answers a registration refused for a weak password alike whether or not the address has an account', async () => {
    const email = newEmail();
    await register(registrationBody(email));
    const weak = { password: 'short', confirm: 'short' };
    expect((await register(registrationBody(email, weak))).json()).toEqual({ errorCode: 2 });
    expect((await register(registrationBody(newEmail(), weak))).json()).toEqual({ errorCode: 2 });
    // Refused before anything was sent.
    expect(await mailTo(email)).toHaveLength(1);
  });
});
