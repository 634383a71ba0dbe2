import { getHeapSpaceStatistics } from 'node:v8';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { jsonHeaders } from './harness.ts';

/**
 * The benchmark's server: the real app, plus a bare route answering a constant JSON body of the
 * same size as a search answer. That route is the ceiling every other route is measured against.
 */
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', SEED_DEMO: 'false' });
const db = openDatabase(config.databaseUrl, {
  poolSize: config.databasePoolSize,
  checkoutPoolSize: config.databaseCheckoutPoolSize,
});
await migrateToLatest(db);
const app = await buildApp({ config, db });

let constant: unknown = null;
app.get('/bench/ceiling', () => constant);
// Where the server's memory is (V8's heap, array buffers, the rest), for the benches to print.
app.get('/bench/memory', () => ({
  ...process.memoryUsage(),
  ...Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size])),
}));
const sample = await app.inject({
  method: 'POST',
  url: '/api/search',
  payload: { title: '', typeId: [], pageSize: 36 },
  headers: { cookie: jsonHeaders.cookie, 'x-xsrf-token': jsonHeaders['x-xsrf-token'] },
});
constant = sample.json();

await app.listen({ port: config.port, host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => db.destroy())
      .then(() => process.exit(0)),
);
