import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { csrfTokenFor } from '../src/server/http/csrf.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/demo-catalogue.ts';

/** What the benchmarks share: a seeded database, the server in its own process, CSRF headers. */

/** The benchmark server's SESSION_SECRET, which signs its CSRF tokens. */
export const BENCH_SESSION_SECRET = 'b'.repeat(32);
// No customer or staff session: the server signs for both cookies' absence.
const benchToken = csrfTokenFor(BENCH_SESSION_SECRET, [undefined, undefined]);

/** Every POST echoes the CSRF cookie, as the shop's page does (a token for a browser with no session). */
export const jsonHeaders = {
  'content-type': 'application/json',
  cookie: `XSRF-TOKEN=${benchToken}`,
  'x-xsrf-token': benchToken,
};

export async function seedDatabase(databaseUrl: string, products: number): Promise<void> {
  const db = openDatabase(databaseUrl);
  await migrateToLatest(db);
  const started = Date.now();
  const result = await seedDemoCatalogue(db, { products });
  console.log(
    result.seeded
      ? `seeded ${products} products in ${((Date.now() - started) / 1000).toFixed(1)} s`
      : 'using the catalogue already in the database',
  );
  await db.destroy();
}

/**
 * VACUUM ANALYZE of every table of one schema, after a seed: this machine's PostgreSQL runs with
 * autovacuum off, so a fresh catalogue would otherwise have no visibility map (no index-only scans)
 * and no statistics. Only the schema's own tables: a bare VACUUM would take the whole database.
 */
export async function vacuumSchema(serverUrl: string, schema: string): Promise<void> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      'select tablename from pg_tables where schemaname = $1 order by tablename',
      [schema],
    );
    for (const { tablename } of rows) await client.query(`vacuum analyze "${schema}"."${tablename}"`);
  } finally {
    await client.end();
  }
  console.log(`vacuumed and analysed ${schema} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** A schema of its own on a PostgreSQL server, as a DATABASE_URL, and a way to drop it. */
export async function freshPostgresSchema(
  serverUrl: string,
): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    url: `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * Node's flags as production runs the server (`npm run serve`), so the benches measure the memory
 * and collector it really has (docs/decisions/0017-in-process-search-index.md).
 */
const servedCommand = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { serve: string } }
).scripts.serve.split(/\s+/);
const servedNodeFlags = servedCommand.filter((argument) => argument.startsWith('--'));
/** The environment the script sets before `node` (MALLOC_ARENA_MAX: docs/operations.md). */
const servedEnv = Object.fromEntries(
  servedCommand.slice(0, servedCommand.indexOf('node')).map((assignment) => assignment.split('=') as [string, string]),
);

/** The app in production mode (bench/server.ts), with production's Node flags, once it answers. */
export async function startBenchServer(
  databaseUrl: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...servedNodeFlags, 'bench/server.ts'], {
    env: {
      ...servedEnv,
      ...process.env,
      NODE_ENV: 'production',
      SESSION_SECRET: BENCH_SESSION_SECRET,
      PUBLIC_URL: `http://localhost:${port}`,
      PAYPAL_MODE: 'sandbox',
      PAYPAL_BUSINESS_EMAIL: 'payments@shop.example',
      // Payments Standard needs no REST credentials; the benches do not pay.
      PAYPAL_INTEGRATION: 'standard',
      OPAYO_MODE: 'test',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Up to two minutes: the server takes its ceiling's body from a search before it listens, and a
  // first search waits for the search index (ADR 0026), which at 100,000 fresh products on
  // PostgreSQL takes about half a minute.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/bench/ceiling`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error('the benchmark server did not start');
}

export function rotate<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

/**
 * Requests at an even pace (open loop): each is sent when its time comes, whatever the answers
 * before it, and its latency is counted from then. autocannon's overallRate does not offer that:
 * each connection sends its share of a second at once at the top of the second, and it counts each
 * latency again for every millisecond it lasted, as if each connection had been meant to send a
 * request every millisecond (docs/decisions/0017-in-process-search-index.md).
 */
export async function pacedRequests(
  send: () => Promise<Response>,
  perSecond: number,
  seconds: number,
): Promise<{ total: number; p50: number; p975: number; p99: number; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const sends: Array<Promise<void>> = [];
  const started = performance.now();
  for (let i = 0; i < Math.round(perSecond * seconds); i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(
      send()
        .then(async (response) => {
          await response.arrayBuffer();
          if (response.ok) latencies.push(performance.now() - due);
          else errors++;
        })
        .catch(() => void errors++),
    );
  }
  await Promise.all(sends);
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? 0);
  return { total: latencies.length + errors, p50: at(0.5), p975: at(0.975), p99: at(0.99), errors };
}

/**
 * An open loop with a bound (bench:sale): the i-th of `perSecond * seconds` sends is due at
 * `started + i / perSecond` and is sent then, whether or not the sends before it were answered, so
 * a slow server cannot slow the offered load down and hide its own slowness (coordinated
 * omission); each `send` measures its latency from `due`, not from when the timer fired. A send due
 * while `maxInFlight` are still unanswered is not made and is counted as dropped: the client has
 * given up, as a shopper would, and the bench does not pile up connections without end.
 */
export async function openLoop(options: {
  perSecond: number;
  seconds: number;
  maxInFlight: number;
  send: (i: number, due: number) => Promise<void>;
}): Promise<{ scheduled: number; dropped: number; sent: number; maxLateMs: number }> {
  const { perSecond, seconds, maxInFlight, send } = options;
  const scheduled = Math.round(perSecond * seconds);
  const sends: Array<Promise<void>> = [];
  let inFlight = 0;
  let dropped = 0;
  let maxLateMs = 0;
  const started = performance.now();
  for (let i = 0; i < scheduled; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // How late the timer fired: the load generator's own lag, already counted in each latency.
    maxLateMs = Math.max(maxLateMs, performance.now() - due);
    if (inFlight >= maxInFlight) {
      dropped++;
      continue;
    }
    inFlight++;
    sends.push(send(i, due).finally(() => inFlight--));
  }
  await Promise.all(sends);
  return { scheduled, dropped, sent: scheduled - dropped, maxLateMs };
}

/** A client address of its own for the n-th shopper of a crowd, in `first`.0.0.0/8 (X-Forwarded-For). */
export function clientAddress(first: number, n: number): string {
  return `${first}.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** A process's CPU seconds so far (user and system, all its threads) and resident memory, from /proc. */
export function processStats(pid: number): { cpuSeconds: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; in clock ticks (100 Hz).
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuSeconds, rssMb: Number(rss ?? 0) / 1024 };
}

/** The types the crowd benches (soak, sale) browse and filter by. */
export const crowdTypes = [2010, 1002, 1003, 1001, 2017, 1004];

/**
 * What a browsing and a searching crowd ask for, in turn: for each of `products`, its page, random
 * picks of a type, its offers and its related products (every fourth time the type tree instead);
 * ten keywords, every other one filtered by a type, pages 1 to 3.
 */
export function browseAndSearchMix(products: Array<{ id: number; urlKey: string }>) {
  const browsePaths = products.flatMap((product, i) => [
    `/api/products/${product.urlKey}`,
    `/api/products/random/${crowdTypes[i % crowdTypes.length]}/8`,
    `/api/offers/${product.id}`,
    i % 4 === 0 ? '/api/product-types' : `/api/products/${product.urlKey}/4`,
  ]);
  const nextBrowse = rotate(browsePaths);
  const words = ['dhol', 'tabla', 'harmonium', 'sitar', 'baja', 'bansuri', 'wood', 'student', 'case', 'brass'];
  const searchBodies = words.flatMap((title, i) =>
    [1, 2, 3].map((pageNumber) =>
      JSON.stringify({ title, typeId: i % 2 ? [crowdTypes[i % crowdTypes.length]] : [], pageNumber }),
    ),
  );
  return { nextBrowse, nextSearch: rotate(searchBodies), browsePaths, searchBodies };
}

/**
 * Signs a back-office member in to a benchmark server (production mode, behind a proxy that reports
 * HTTPS): sets their password from the set-password link, signs in, and gives the headers their
 * calls carry (the session cookie and its CSRF token).
 */
export async function signInBenchStaff(
  port: number,
  member: { email: string; setPasswordUrl: string; password: string },
): Promise<Record<string, string>> {
  const base = `http://127.0.0.1:${port}/api/admin`;
  const https = { 'x-forwarded-proto': 'https' };
  const anonymous = csrfTokenFor(BENCH_SESSION_SECRET, [undefined, undefined]);
  const json = {
    ...https,
    'content-type': 'application/json',
    cookie: `XSRF-TOKEN=${anonymous}`,
    'x-xsrf-token': anonymous,
  };
  const { email, password } = member;
  await fetch(`${base}/set-password`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ token: member.setPasswordUrl.split('/').at(-1), password, confirm: password }),
  });
  const signedIn = await fetch(`${base}/sign-in`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  const session = /__Host-admin=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  const token = csrfTokenFor(BENCH_SESSION_SECRET, [undefined, session]);
  return { ...https, cookie: `__Host-admin=${session}; XSRF-TOKEN=${token}`, 'x-xsrf-token': token };
}

const saleAddress = { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };

/**
 * A sale shopper's order (bench:sale, both loops): a two-line basket to price, and the same with
 * their details to price again and commit; shopper `n` has an e-mail address of their own. The
 * first line is drawn by `firstStock` (bench:sale --hot: a popular size), the second by `nextStock`.
 */
export function saleOrder(n: number, nextStock: () => number, firstStock: () => number = nextStock) {
  const basket = {
    items: [firstStock(), nextStock()].map((productStockId) => ({ productStockId, requestedQty: 1 })),
    deliveryAddress: saleAddress,
    deliveryMethodRateId: 3,
  };
  const guest = {
    titleId: 1,
    firstname: 'Sale',
    lastname: 'Day',
    email: `sale.${n}@example.com`,
    contactNumber: '0121 496 0000',
  };
  return { basket, withDetails: { ...basket, guest, billingAddress: saleAddress } };
}
