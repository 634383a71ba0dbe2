import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/database.ts';
import { seedIfEmpty } from '../../src/server/db/seed/seed.ts';
import { createTestDb, type TestDatabase } from './test-db.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: Config;
  /** Where this app's mail goes (a temp folder of its own). */
  outboxDir: string;
  close(): Promise<void>;
}

/** buildApp() on a fresh test database; `demo` seeds the demo catalogue first. */
export async function createTestApp(
  options: { demo?: boolean; env?: Record<string, string>; webRoot?: string; paymentFetch?: typeof fetch } = {},
): Promise<TestApp> {
  const { db, database } = await createTestDb();
  if (options.demo) await seedIfEmpty(db);
  const outboxDir = mkdtempSync(join(tmpdir(), 'shop-outbox-'));
  const config = loadConfig({ NODE_ENV: 'test', MAIL_OUTBOX_DIR: outboxDir, ...options.env });
  const app = await buildApp({
    config,
    db,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.paymentFetch ? { paymentFetch: options.paymentFetch } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    database,
    config,
    outboxDir,
    async close() {
      await app.close();
      await database.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}
