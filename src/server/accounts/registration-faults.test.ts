import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { registrationBody } from '../../../test/helpers/registration.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';

/**
 * docs/rules.md#accounts-and-sessions: registration once took any failure of its insert for "Email already in use"
 * (errorCode 4), a database fault included. Only the unique-key violation means that; any other
 * failure is an error answer, and the shopper is not told a falsehood about their address.
 */
describe('registration when the database cannot take the new customer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
  });
  afterAll(() => t.close());

  const register = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registrationBody(email, { titleId: 1 }),
    });

  const accountsWith = async (email: string) =>
    (await t.db.kysely.selectFrom('customers').select('id').where('email', '=', email).execute()).length;

  /** Makes every insert into customers fail as a full disk would, while `during` runs. */
  async function withCustomersFailing<T>(during: () => Promise<T>): Promise<T> {
    const db = t.db.kysely;
    if (testDialect === 'sqlite') {
      await sql`create trigger customers_fail before insert on customers begin select raise(fail, 'database or disk is full'); end`.execute(
        db,
      );
    } else {
      await sql`create function customers_fail() returns trigger language plpgsql as $$ begin raise exception using errcode = 'disk_full', message = 'could not extend file'; end $$`.execute(
        db,
      );
      await sql`create trigger customers_fail before insert on customers for each row execute function customers_fail()`.execute(
        db,
      );
    }
    try {
      return await during();
    } finally {
      await sql`drop trigger customers_fail${sql.raw(testDialect === 'postgres' ? ' on customers' : '')}`.execute(db);
      if (testDialect === 'postgres') await sql`drop function customers_fail()`.execute(db);
    }
  }

  it('answers an error, not "Email already in use", and registers the address once the database is well', async () => {
    const email = `fault.${Date.now()}@example.com`;
    const during = await withCustomersFailing(() => register(email));
    expect(during.statusCode).toBeGreaterThanOrEqual(500);
    expect(during.json()).toMatchObject({ error: { code: expect.any(String) } });
    const after = await register(email);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ errorCode: 0 });
    // Registered: a second registration is answered as the first (it mails the owner instead).
    expect((await register(email)).json()).toEqual({ errorCode: 0 });
    expect(await accountsWith(email)).toBe(1);
  });

  it('registers an address once when it is sent several times at the same moment, answering each alike', async () => {
    const email = `twice.${Date.now()}@example.com`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => register(email)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const codes = answers.map((answer) => answer.json<{ errorCode: number }>().errorCode).sort();
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(await accountsWith(email)).toBe(1);
  });

  it('refuses an address the registration form would refuse, by the same rule', async () => {
    for (const email of ['a..b@example.com', '.meera@example.com', 'meera@example.c']) {
      expect((await register(email)).json(), email).toEqual({ errorCode: 1 });
    }
  });
});
