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
import { freshPostgresSchema, seedDatabase, signInBenchStaff, startBenchServer } from './harness.ts';

/** One order of the generated ones, whose fields the searches look for. */
export interface SampleOrder {
  order_number: number;
  delivery_postcode: string;
  delivery_line1: string;
  email: string;
  lastname: string;
}

/**
 * A back-office list at scale, shared by bench:admin-orders and bench:admin-customers: seeds a
 * catalogue and --orders orders (100,000 by default), signs a member of staff in, and measures
 * each query (a path under /api/admin, made from a sample order) with autocannon, printing
 * req/s, p50, p99 and how many the answer matched (`matchesOf`).
 */
export async function benchBackOfficeList(list: {
  defaultPort: number;
  /** What the last column counts, as its header says. */
  matchesHeader: string;
  queries(sample: SampleOrder): Array<[name: string, path: string]>;
  matchesOf(answer: unknown): number | undefined;
}): Promise<void> {
  const { values } = parseArgs({
    options: {
      orders: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      postgres: { type: 'string' },
      port: { type: 'string', default: String(list.defaultPort) },
    },
  });
  const port = Number(values.port);
  const dir = mkdtempSync(join(tmpdir(), 'shop-bench-admin-'));
  const schema = values.postgres ? await freshPostgresSchema(values.postgres) : undefined;
  const databaseUrl = schema?.url ?? `sqlite:${join(dir, 'bench.db')}`;

  await seedDatabase(databaseUrl, 2_000);
  const db = openDatabase(databaseUrl);
  await migrateToLatest(db);
  const started = Date.now();
  await generateOrders(db, Number(values.orders));
  console.log(`generated ${values.orders} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // A shop's orders arrive over months, and PostgreSQL's autovacuum keeps up with them; after a
  // bulk load, do here what it would soon do (SQLite's statistics are refreshed by the server at start).
  if (db.dialect === 'postgres') await sql`vacuum analyze orders`.execute(db.kysely);
  const staff = createStaffService(db.kysely, { publicUrl: `http://localhost:${port}`, shopName: async () => 'Bench' });
  const email = `bench.${Date.now()}@shop.example`;
  const { setPasswordUrl } = await staff.create({ email, name: 'Bench', role: 'staff' });
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
    const headers = await signInBenchStaff(port, { email, setPasswordUrl, password: 'Bench-Password-For-Staff-1' });
    const base = `http://127.0.0.1:${port}/api/admin`;
    console.log(
      `\n${values.postgres ? 'PostgreSQL' : 'SQLite'}, ${values.orders} orders, ${values.connections} connections, ${values.duration} s each`,
    );
    console.log(`| query | req/s | p50 ms | p99 ms | ${list.matchesHeader} | errors |\n|---|---|---|---|---|---|`);
    for (const [name, path] of list.queries(sample)) {
      const url = `${base}/${path}`;
      const matches = list.matchesOf(await (await fetch(url, { headers })).json());
      const result = await autocannon({
        url,
        connections: Number(values.connections),
        duration: Number(values.duration),
        headers,
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
}
