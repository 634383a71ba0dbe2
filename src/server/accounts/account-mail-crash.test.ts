import { afterEach, describe, expect, it } from 'vitest';
import { crashAfterCommit } from '../../../test/helpers/crash-after-commit.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { registrationBody } from '../../../test/helpers/registration.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * A new verification or reset link ends every earlier link of its kind (docs/rules.md#accounts-and-sessions),
 * so the new link's mail is queued in the same transaction as its token (docs/rules.md#mail). When
 * the mail was queued after the token had committed, a process that died between the two left the
 * customer with no working link and no mail.
 */
describe("an account link's e-mail and a crash right after its token commits", () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const closable of open.splice(0).reverse()) await closable.close();
  });

  async function shop() {
    // The process dies right after the transaction that stores a new link's token commits.
    const fault = crashAfterCommit(/^insert into "account_tokens"/);
    const t: TestApp = await createTestApp({
      env: { RATE_LIMIT_FACTOR: '100' },
      log: (event) => fault.log(event),
      wrapDb: (db) => fault.wrapDb(db),
    });
    open.push(t);
    return { t, fault };
  }

  /** After the crash: the next instance sends what was queued. Answers the links mailed to `to`. */
  async function linksAfterRestart(t: TestApp, to: string, path: string) {
    const next = await createSecondInstance(t);
    open.push(next);
    const mail = await deliveredMail({ db: t.db, outboxDir: t.outboxDir, app: next.app });
    return mail
      .filter((m) => m.to === to)
      .map((m) => new RegExp(`/${path}/([A-Za-z0-9_-]+)`).exec(decodeQuotedPrintable(m.raw))?.[1])
      .filter((token) => token !== undefined);
  }

  it('sends the verification link of a registration made just before the crash', async () => {
    const { t, fault } = await shop();
    const email = 'crash.registration@example.com';
    fault.arm();
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    expect(fault.state.dead).toBe(true);
    fault.restart();
    const links = await linksAfterRestart(t, email, 'verify-account');
    expect(links).toHaveLength(1);
    const token = links[0];
    expect((await t.app.inject({ method: 'POST', url: '/api/activate', payload: { token } })).statusCode).toBe(200);
  });

  it('sends the reset link that ended the earlier ones, though the process died once it was stored', async () => {
    const { t, fault } = await shop();
    const email = 'crash.reset@example.com';
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    await deliveredMail(t);
    fault.arm();
    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } });
    // Forgot-password answers first and issues the link after; wait for that.
    await t.server.mailSettled();
    expect(fault.state.dead).toBe(true);
    fault.restart();
    const links = await linksAfterRestart(t, email, 'reset-password');
    expect(links).toHaveLength(1);
    const token = links[0];
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      payload: { token, password: 'Sitar-Evening-Raga-42', confirm: 'Sitar-Evening-Raga-42' },
    });
    expect(reset.json()).toEqual({ ok: true, errorCode: 0 });
  });
});
