import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import pg from 'pg';
import { browseAndSearchMix, freshPostgresSchema, jsonHeaders, seedDatabase, startBenchServer } from './harness.ts';

/**
 * A sale on one instance (npm run bench:sale): a sale-day crowd at once, at 100,000 products,
 * caches at their defaults: 70 connections browsing (product pages, related products, offers,
 * random picks, the type tree), 20 searching, and 10 shoppers checking out, each pricing a
 * two-line basket twice and then committing it, every order with its own e-mail address. Run on
 * SQLite, on PostgreSQL on this machine, and on PostgreSQL behind a TCP proxy (bench/delay-proxy.ts)
 * that adds --delay-ms in each direction, as a database on another host in the same region would
 * (the bench measures and prints the round trip it really adds). Checkouts come through the bench
 * as through the shop's proxy, each shopper from an address of their own. Prints, per database: browse and search req/s and p99, orders
 * committed per second (counted in the database), the commit's p50 and p99, and errors.
 *
 *   npm run bench:sale -- [--products 100000] [--duration 60]
 *                         [--databases sqlite,postgres,postgres-remote] [--delay-ms 0.5]
 *                         [--postgres postgres://postgres@127.0.0.1:5432/test]
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '60' },
    databases: { type: 'string', default: 'sqlite,postgres,postgres-remote' },
    'delay-ms': { type: 'string', default: '0.5' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    port: { type: 'string', default: '3781' },
  },
});
const products = Number(values.products);
const duration = Number(values.duration);
const delayMs = Number(values['delay-ms']);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const crowd = { browse: 70, search: 20, checkout: 10 };

interface Figures {
  database: string;
  browse: { perSecond: number; p99: number; errors: number };
  search: { perSecond: number; p99: number; errors: number };
  committedPerSecond: number;
  commitP50: number;
  commitP99: number;
  verifyP50: number;
  verifyP99: number;
  checkoutErrors: number;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...jsonHeaders, ...headers },
    body: JSON.stringify(body),
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** What the crowd asks for, drawn from the seeded catalogue. */
async function prepare(stockIds: number[]) {
  const found = (await (await post('/api/search', { pageSize: 100 })).json()) as {
    results: Array<{ id: number; urlKey: string }>;
  };
  return { ...browseAndSearchMix(found.results), stockIds };
}

/** The whole crowd for `seconds`: browse and search through autocannon, checkouts in bench/sale-shoppers.ts. */
async function sale(work: Awaited<ReturnType<typeof prepare>>, seconds: number, ordersNow: () => Promise<number>) {
  const before = await ordersNow();
  const shoppers = new Worker(new URL('./sale-shoppers.ts', import.meta.url), {
    workerData: { base, stockIds: work.stockIds, seconds, shoppers: crowd.checkout, firstShopper: shopperCount },
  });
  const checkouts = new Promise<{ commits: number[]; verifies: number[]; problems: number; nextShopper: number }>(
    (resolve, reject) => {
      shoppers.once('message', resolve);
      shoppers.once('error', reject);
    },
  );
  const [browse, search, checkedOut] = await Promise.all([
    autocannon({
      url: base,
      connections: crowd.browse,
      duration: seconds,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: work.nextBrowse() }) }],
    }),
    autocannon({
      url: base,
      connections: crowd.search,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: '/api/search',
          headers: jsonHeaders,
          setupRequest: (req) => ({ ...req, body: work.nextSearch() }),
        },
      ],
    }),
    checkouts,
  ]);
  shopperCount = checkedOut.nextShopper;
  const committed = (await ordersNow()) - before;
  const commits = checkedOut.commits.sort((a, b) => a - b);
  const verifies = checkedOut.verifies.sort((a, b) => a - b);
  const errorsOf = (result: autocannon.Result) => result.errors + result.timeouts + result.non2xx;
  return {
    browse: { perSecond: browse.requests.average, p99: browse.latency.p99, errors: errorsOf(browse) },
    search: { perSecond: search.requests.average, p99: search.latency.p99, errors: errorsOf(search) },
    committedPerSecond: committed / seconds,
    commitP50: percentile(commits, 50),
    commitP99: percentile(commits, 99),
    verifyP50: percentile(verifies, 50),
    verifyP99: percentile(verifies, 99),
    checkoutErrors: checkedOut.problems,
  };
}

/** The delaying proxy (bench/delay-proxy.ts) in a worker thread, and the port it listens on. */
async function delayingProxy(target: { host: string; port: number }, delay: number) {
  const worker = new Worker(new URL('./delay-proxy.ts', import.meta.url), {
    workerData: { ...target, roundTripMs: 2 * delay },
  });
  const proxyPort = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { port: proxyPort, close: () => worker.terminate() };
}

/** The median time of `select 1` over `url`, in ms. */
async function roundTrip(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await client.query('select 1');
    times.push(performance.now() - started);
  }
  await client.end();
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

function viaProxy(url: string, proxyPort: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxyPort);
  return parsed.toString();
}

/** Numbers shoppers across the runs: each order has its own e-mail address and client address. */
let shopperCount = 1;

const wanted = values.databases.split(',').map((name) => name.trim());
const rows: Figures[] = [];
const notes: string[] = [];

async function measure(name: string, databaseUrl: string, ordersUrl: string, env: Record<string, string> = {}) {
  const server = await startBenchServer(databaseUrl, port, {
    // The bench is the proxy in front: each checkout says whose it is in X-Forwarded-For. The caps on
    // unpaid orders per e-mail address and per client stay as shipped.
    TRUST_PROXY: 'true',
    ...env,
  });
  try {
    await searchIndexAnswers();
    const ordersNow = await databaseReader(ordersUrl);
    const work = await prepare(await ordersNow.stockIds());
    try {
      console.log(`${name}: warming up for 10 s, then the sale for ${duration} s…`);
      await sale(work, 10, ordersNow.count);
      rows.push({ database: name, ...(await sale(work, duration, ordersNow.count)) });
    } finally {
      await ordersNow.close();
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

/**
 * The server builds its search index after it starts and answers from the database meanwhile
 * (ADR 0017); the sale is measured on a running shop, once a typo finds products.
 */
async function searchIndexAnswers(): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 180_000) {
    const probe = (await (await post('/api/search', { title: 'harmonum' })).json()) as { totalResults: number };
    if (probe.totalResults > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.log(`the search index answered ${((Date.now() - started) / 1000).toFixed(1)} s after the server listened`);
}

/**
 * Reads the database straight: the orders it holds (so a basket answered as changed is not
 * counted), and stock entries of published products with plenty left, which the shoppers buy (a
 * few would soon sell out, and the commits turn into corrected baskets).
 */
async function databaseReader(url: string) {
  const stockSql = `select s.id from product_stocks s join products p on p.id = s.product_id
    where p.status = 'published' and s.stock >= 10 order by random() limit 5000`;
  if (url.startsWith('sqlite:')) {
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(url.slice('sqlite:'.length), { readonly: true });
    return {
      count: async () => (db.prepare('select count(*) as n from orders').get() as { n: number }).n,
      stockIds: async () => (db.prepare(stockSql).all() as Array<{ id: number }>).map((row) => row.id),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    count: async () => Number((await client.query('select count(*) as n from orders')).rows[0].n),
    stockIds: async () => (await client.query<{ id: number }>(stockSql)).rows.map((row) => row.id),
    close: () => client.end(),
  };
}

if (wanted.includes('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'shop-sale-'));
  try {
    const url = `sqlite:${join(dir, 'sale.db')}`;
    await seedDatabase(url, products);
    await measure('SQLite', url, url);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (wanted.some((name) => name.startsWith('postgres'))) {
  const schema = await freshPostgresSchema(values.postgres);
  try {
    await seedDatabase(schema.url, products);
    if (wanted.includes('postgres')) {
      notes.push(`PostgreSQL on this machine: select 1 round trip ${(await roundTrip(schema.url)).toFixed(2)} ms`);
      await measure('PostgreSQL', schema.url, schema.url);
    }
    if (wanted.includes('postgres-remote')) {
      const target = new URL(values.postgres);
      const proxy = await delayingProxy({ host: target.hostname, port: Number(target.port || 5432) }, delayMs);
      try {
        const proxied = viaProxy(schema.url, proxy.port);
        notes.push(
          `PostgreSQL behind the proxy (${delayMs} ms each way asked): select 1 round trip ${(await roundTrip(proxied)).toFixed(2)} ms`,
        );
        await measure(`PostgreSQL, ${delayMs * 2} ms away`, proxied, schema.url);
      } finally {
        await proxy.close();
      }
    }
  } finally {
    await schema.drop();
  }
}

const ms = (value: number) => Math.round(value);
console.log(
  [
    `\nA sale: ${products} products, ${crowd.browse} browsing, ${crowd.search} searching, ${crowd.checkout} checking out, ${duration} s\n`,
    '| database | browse req/s, p99 | search req/s, p99 | orders committed/s | commit p50, p99 | pricing p50, p99 | errors |',
    '|---|---|---|---:|---|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.database} | ${ms(r.browse.perSecond)}, ${ms(r.browse.p99)} ms | ${ms(r.search.perSecond)}, ${ms(r.search.p99)} ms | ${r.committedPerSecond.toFixed(1)} | ${ms(r.commitP50)} ms, ${ms(r.commitP99)} ms | ${ms(r.verifyP50)} ms, ${ms(r.verifyP99)} ms | ${r.browse.errors + r.search.errors + r.checkoutErrors} |`,
    ),
    '',
    ...notes,
  ].join('\n'),
);
