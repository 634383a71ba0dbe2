import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { createStaffService } from '../src/server/staff/staff.service.ts';
import { generateOrders } from './generate-orders.ts';
import { freshPostgresSchema, jsonHeaders, seedDatabase, startBenchServer } from './harness.ts';

/**
 * The back office's customer list at scale (npm run bench:admin-customers): seeds a catalogue and
 * --orders guest orders (100,000 by default, about 90,000 addresses), signs a member of staff in,
 * and measures each kind of list answer (the whole list sorted three ways, a deep page, searches,
 * one customer's page) with autocannon, printing p50 and p99 (docs/back-office.md#customers).
 *
 *   npm run bench:admin-customers -- --orders 100000 [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'string' },
    port: { type: 'string', default: '3779' },
  },
});
const port = Number(values.port);
const dir = mkdtempSync(join(tmpdir(), 'shop-bench-customers-'));
const schema = values.postgres ? await freshPostgresSchema(values.postgres) : undefined;
const databaseUrl = schema?.url ?? `sqlite:${join(dir, 'bench.db')}`;

await seedDatabase(databaseUrl, 2_000);
const db = openDatabase(databaseUrl);
await migrateToLatest(db);
const started = Date.now();
await generateOrders(db, Number(values.orders));
console.log(`generated ${values.orders} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
// A shop's orders arrive over months, and PostgreSQL's autovacuum keeps up with them; after a bulk
// load, do here what it would soon do (SQLite's statistics are refreshed by the server at start).
if (db.dialect === 'postgres') await sql`vacuum analyze orders`.execute(db.kysely);
const staff = createStaffService(db.kysely, { publicUrl: `http://localhost:${port}`, shopName: 'Bench' });
const { setPasswordUrl } = await staff.create({
  email: `bench.${Date.now()}@shop.example`,
  name: 'Bench',
  role: 'staff',
});
const email = (await db.kysely.selectFrom('staff').select('email').orderBy('id', 'desc').executeTakeFirstOrThrow())
  .email;
const sample = await db.kysely
  .selectFrom('orders')
  .select(['order_number', 'delivery_postcode', 'delivery_line1', 'email', 'lastname'])
  .orderBy('id')
  .offset(5_000)
  .limit(1)
  .executeTakeFirstOrThrow();
await db.destroy();

const server = await startBenchServer(databaseUrl, port, { TRUST_PROXY: 'true' });
try {
  // Production mode: the back office answers only over HTTPS, which a proxy in front reports.
  const https = { ...jsonHeaders, 'x-forwarded-proto': 'https' };
  const password = 'Bench-Password-For-Staff-1';
  const base = `http://127.0.0.1:${port}/api/admin`;
  await fetch(`${base}/set-password`, {
    method: 'POST',
    headers: https,
    body: JSON.stringify({ token: setPasswordUrl.split('/').at(-1), password, confirm: password }),
  });
  const signedIn = await fetch(`${base}/sign-in`, {
    method: 'POST',
    headers: https,
    body: JSON.stringify({ email, password }),
  });
  const cookie = /(__Host-admin=[^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);

  const list = (query: string) => `customers?${query}`;
  const queries: Array<[string, string]> = [
    ['everyone, last order first', list('')],
    ['everyone, most spent first', list('sort=spent')],
    ['everyone, by e-mail, page 400', list('sort=email&page=400')],
    ['postcode', list(`q=${encodeURIComponent(sample.delivery_postcode.toLowerCase().replace(' ', ''))}`)],
    ['postcode district', list(`q=${encodeURIComponent(sample.delivery_postcode.split(' ')[0]!)}`)],
    ['address line', list(`q=${encodeURIComponent(sample.delivery_line1.toLowerCase())}`)],
    ['e-mail start', list(`q=${encodeURIComponent(sample.email.slice(0, 10))}`)],
    ['surname', list(`q=${encodeURIComponent(sample.lastname)}`)],
    ["a guest's page", `customers/ref/o${sample.order_number}`],
  ];
  console.log(
    `\n${values.postgres ? 'PostgreSQL' : 'SQLite'}, ${values.orders} orders, ${values.connections} connections, ${values.duration} s each`,
  );
  console.log('| query | req/s | p50 ms | p99 ms | customers (or orders) | errors |\n|---|---|---|---|---|---|');
  for (const [name, query] of queries) {
    const url = `${base}/${query}`;
    const answer = (await (await fetch(url, { headers: { cookie, 'x-forwarded-proto': 'https' } })).json()) as {
      total?: number;
      orderCount?: number;
    };
    const matches = answer.total ?? answer.orderCount;
    const result = await autocannon({
      url,
      connections: Number(values.connections),
      duration: Number(values.duration),
      headers: { cookie, 'x-forwarded-proto': 'https' },
    });
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(
      `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${matches} | ${errors} |`,
    );
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await schema?.drop();
  rmSync(dir, { recursive: true, force: true });
}
