import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Db, type OpenOptions } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';

/**
 * The database the tests run on: SQLite by default, PostgreSQL when TEST_DATABASE_URL is a
 * postgres:// URL. Each call gets a fresh, empty database built by the real migrations: a temp
 * file on SQLite, a schema of its own on PostgreSQL.
 */

export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? '';
export const testDialect = testDatabaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** Opens another connection (pool) to the same database, as a second instance would; `log` as openDatabase's. */
  connect(options?: Pick<OpenOptions, 'log' | 'checkoutPoolSize'>): Db;
  url: string;
  /** DATABASE_URL for another process (an instance, a CLI) to reach this same database. */
  processUrl: string;
  pgSchema: string | undefined;
  drop(): Promise<void>;
}

export async function createEmptyDatabase(): Promise<TestDatabase> {
  const opened: Db[] = [];
  if (testDialect === 'postgres') {
    const schema = `test_${randomBytes(8).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    return {
      url: testDatabaseUrl,
      processUrl: `${testDatabaseUrl}${testDatabaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      pgSchema: schema,
      connect(options = {}) {
        const db = openDatabase(testDatabaseUrl, { pgSchema: schema, poolSize: 5, ...options });
        opened.push(db);
        return db;
      },
      async drop() {
        await Promise.all(opened.map((db) => db.destroy()));
        const client = new pg.Client({ connectionString: testDatabaseUrl });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'shop-test-'));
  const url = `sqlite:${join(dir, 'shop.db')}`;
  return {
    url,
    processUrl: url,
    pgSchema: undefined,
    connect(options = {}) {
      const db = openDatabase(url, options);
      opened.push(db);
      return db;
    },
    async drop() {
      await Promise.all(opened.map((db) => db.destroy()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A migrated, empty database and one connection to it. */
export async function createTestDb(
  options: Pick<OpenOptions, 'log' | 'checkoutPoolSize'> = {},
): Promise<{ db: Db; database: TestDatabase }> {
  const database = await createEmptyDatabase();
  const db = database.connect(options);
  await migrateToLatest(db);
  return { db, database };
}
