import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { createTestDb, testDialect, type TestDatabase } from '../../../test/helpers/test-db.ts';

describe('database connections in use and waiting (the metrics read them at each scrape)', () => {
  let db: Db;
  let database: TestDatabase;
  beforeAll(async () => ({ db, database } = await createTestDb()));
  afterAll(() => database.drop());

  async function until(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(db.poolUsage())}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('counts the connections transactions hold and the statements queued for one', async () => {
    // SQLite has one connection; the PostgreSQL test pools hold five.
    const size = testDialect === 'sqlite' ? 1 : 5;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: size }, () =>
      db.kysely.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await gate;
      }),
    );
    await until(() => db.poolUsage().inUse === size);
    const waiter = sql`select 1`.execute(db.kysely);
    await until(() => db.poolUsage().waiting === 1);
    expect(db.poolUsage()).toEqual({ size, inUse: size, waiting: 1 });
    release();
    await Promise.all([...holders, waiter]);
    expect(db.poolUsage()).toMatchObject({ inUse: 0, waiting: 0 });
  });
});
