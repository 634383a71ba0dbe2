import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  browseAndSearchMix,
  freshPostgresSchema,
  jsonHeaders,
  processStats,
  seedDatabase,
  startBenchServer,
  vacuumSchema,
} from './harness.ts';
import type { CrowdResult, CrowdSetup } from './sale-crowd.ts';

/**
 * A sale on one instance (npm run bench:sale), at 100,000 products, caches at their defaults, on
 * SQLite and on PostgreSQL on this machine (and, asked for, on PostgreSQL behind a TCP proxy,
 * bench/delay-proxy.ts, that adds --delay-ms each way, as a database on another host in the same
 * region would; the bench measures and prints the round trip it really adds). PostgreSQL's schema
 * is vacuumed and analysed after the seed: this machine's PostgreSQL has autovacuum off.
 *
 * Open loop (the default; issue 39): the crowds arrive at fixed rates whatever the shop's answers,
 * as a sale's shoppers do: --views product views (product pages, related products, offers, random
 * picks, the type tree), --searches searches and --orders orders a second, each order two pricings
 * and a commit. A closed loop cannot say whether a shopper waits: there, when browsing gets faster it
 * sends more and takes checkout's share of the two cores. Each request's latency counts from when it
 * was due (bench/harness.ts, openLoop), so a slow answer cannot hide behind the requests it held
 * back; past --max-in-flight unanswered requests a crowd drops its sends and counts them. Prints,
 * per crowd, the offered and achieved rates, p50, p99, max and errors; the server's CPU per request
 * and its largest resident memory; and where the commits' time went (src/server/orders/commit-timing.ts,
 * BENCH_COMMIT_TIMING=1; --commit-timing off leaves it out).
 *
 * Closed loop (--mode closed, the earlier bench): 70 connections browsing, 20 searching and 10
 * shoppers checking out, each as fast as the shop answers.
 *
 * --hot N (open loop): every order's first line is one of N popular sizes, given stock enough for
 * the whole run, so that commits queue for those sizes' row locks as a sale's best-seller's do; 0
 * (the default) spreads both lines over 5,000 sizes, where row locks are seldom waited for.
 *
 * Every order has its own e-mail address and client address, and in the open loop every view and
 * search its own client address: the bench plays the shop's proxy (TRUST_PROXY, X-Forwarded-For).
 *
 *   npm run bench:sale -- [--mode open|closed] [--products 100000] [--duration 60] [--warmup 10]
 *                         [--views 800] [--searches 120] [--orders 60] [--max-in-flight 256] [--hot 0]
 *                         [--commit-timing on|off] [--databases sqlite,postgres[,postgres-remote]]
 *                         [--delay-ms 0.5] [--postgres postgres://postgres@127.0.0.1:5432/test]
 */

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'open' },
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    views: { type: 'string', default: '800' },
    searches: { type: 'string', default: '120' },
    orders: { type: 'string', default: '60' },
    'max-in-flight': { type: 'string', default: '256' },
    hot: { type: 'string', default: '0' },
    'commit-timing': { type: 'string', default: 'on' },
    databases: { type: 'string', default: 'sqlite,postgres' },
    'delay-ms': { type: 'string', default: '0.5' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    port: { type: 'string', default: '3781' },
  },
});
if (values.mode !== 'open' && values.mode !== 'closed') throw new Error('--mode is open or closed');
const openMode = values.mode === 'open';
const products = Number(values.products);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const rates = { views: Number(values.views), searches: Number(values.searches), orders: Number(values.orders) };
const maxInFlight = Number(values['max-in-flight']);
const hot = Number(values.hot);
if (!Number.isInteger(hot) || hot < 0) throw new Error('--hot is a whole number of sizes, 0 or more');
const commitTiming = openMode && values['commit-timing'] !== 'off';
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
  // The popular sizes (--hot) are the first few drawn; the others stay for the orders' second line.
  return { ...browseAndSearchMix(found.results), stockIds: stockIds.slice(hot), hotStockIds: stockIds.slice(0, hot) };
}

/** The closed loop's crowd for `seconds`: browse and search through autocannon, checkouts in bench/sale-shoppers.ts. */
async function closedSale(
  work: Awaited<ReturnType<typeof prepare>>,
  seconds: number,
  ordersNow: () => Promise<number>,
) {
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

/** Per crowd: what was offered and what came of it. */
interface CrowdFigures {
  crowd: string;
  offered: number;
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  dropped: number;
}

interface OpenFigures {
  database: string;
  crowds: CrowdFigures[];
  committedPerSecond: number;
  cpuMsPerRequest: number;
  cpuCores: number;
  maxRssMb: number;
  maxLateMs: number;
  /** Requests answered after more than 200 ms, counted by the second of the run they were due in. */
  slowBySecond: Map<number, number>;
  observed: Record<string, number>;
  commitTiming: CommitTiming | null;
}

interface CommitTiming {
  phases: Array<{ phase: string; count: number; p50: number; p99: number; max: number }>;
  eventLoops: Array<{ thread: string; p50: number; p99: number; max: number }>;
}

/** Each crowd's next shopper, across runs: no address or e-mail address is used twice. */
const nextShopperOf = { views: 1, searches: 1, orders: 1 };

/** The open loop's crowds, each in a thread of its own (bench/sale-crowd.ts), for `seconds`. */
async function openSale(
  work: Awaited<ReturnType<typeof prepare>>,
  seconds: number,
  serverPid: number,
  ordersNow: () => Promise<number>,
): Promise<Omit<OpenFigures, 'database'>> {
  const common = { base, seconds, maxInFlight };
  const setups: CrowdSetup[] = [
    {
      ...common,
      crowd: 'views',
      perSecond: rates.views,
      addressOctet: 11,
      firstShopper: nextShopperOf.views,
      paths: work.browsePaths,
    },
    {
      ...common,
      crowd: 'searches',
      perSecond: rates.searches,
      addressOctet: 12,
      firstShopper: nextShopperOf.searches,
      bodies: work.searchBodies,
    },
    {
      ...common,
      crowd: 'orders',
      perSecond: rates.orders,
      addressOctet: 10,
      firstShopper: nextShopperOf.orders,
      stockIds: work.stockIds,
      hotStockIds: work.hotStockIds,
    },
  ];
  const ordersBefore = await ordersNow();
  const cpuBefore = processStats(serverPid).cpuSeconds;
  const started = performance.now();
  // The server's resident memory, sampled through the run: its largest is what a host must have.
  let maxRssMb = 0;
  const sampler = setInterval(() => (maxRssMb = Math.max(maxRssMb, processStats(serverPid).rssMb)), 250);
  const results = await Promise.all(
    setups
      .filter((setup) => setup.perSecond > 0)
      .map(
        (setup) =>
          new Promise<CrowdResult & { setup: CrowdSetup }>((resolve, reject) => {
            const worker = new Worker(new URL('./sale-crowd.ts', import.meta.url), { workerData: setup });
            worker.once('message', (result: CrowdResult) => resolve({ ...result, setup }));
            worker.once('error', reject);
          }),
      ),
  );
  clearInterval(sampler);
  maxRssMb = Math.max(maxRssMb, processStats(serverPid).rssMb);
  const cpuSeconds = processStats(serverPid).cpuSeconds - cpuBefore;
  // The run lasts until its last answer (or timeout), a little past `seconds`.
  const elapsedSeconds = (performance.now() - started) / 1000;
  const committed = (await ordersNow()) - ordersBefore;

  const crowds: CrowdFigures[] = [];
  let answered = 0;
  const slowBySecond = new Map<number, number>();
  for (const result of results) {
    nextShopperOf[result.setup.crowd] = result.nextShopper;
    for (const [name, part] of Object.entries(result.parts)) {
      if (!name.startsWith('order,'))
        for (const second of part.slowAt) slowBySecond.set(second, (slowBySecond.get(second) ?? 0) + 1);
      const sorted = part.latencies.sort((a, b) => a - b);
      answered += name.startsWith('order,') ? 0 : sorted.length;
      // Offered: the crowd's rate; an order's pricings are two for each order offered.
      const offered = name === 'pricing' ? 2 * result.setup.perSecond : result.setup.perSecond;
      crowds.push({
        crowd: name,
        offered,
        achieved: sorted.length / seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
        errors: part.errors,
        // Sends dropped over the bound, shown against the crowd's first request (an order dropped
        // is its first pricing never sent, and so its second pricing and commit) and the whole order.
        dropped: name === result.setup.crowd || name === 'pricing' || name.startsWith('order,') ? result.dropped : 0,
      });
    }
  }
  const observed = (await (
    await fetch(`${base}/bench/observed`, { method: 'POST', headers: jsonHeaders, body: '{}' })
  ).json()) as Record<string, number>;
  const timing = commitTiming ? ((await (await fetch(`${base}/bench/commit-timing`)).json()) as CommitTiming) : null;
  return {
    crowds,
    committedPerSecond: committed / seconds,
    cpuMsPerRequest: answered ? (cpuSeconds * 1000) / answered : 0,
    cpuCores: cpuSeconds / elapsedSeconds,
    maxRssMb,
    maxLateMs: Math.max(...results.map((result) => result.maxLateMs)),
    slowBySecond,
    observed,
    commitTiming: timing,
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
const openRows: OpenFigures[] = [];
const notes: string[] = [];

async function measure(name: string, databaseUrl: string, ordersUrl: string, env: Record<string, string> = {}) {
  const server = await startBenchServer(databaseUrl, port, {
    // The bench is the proxy in front: each checkout says whose it is in X-Forwarded-For. The caps on
    // unpaid orders per e-mail address and per client stay as shipped.
    TRUST_PROXY: 'true',
    ...(commitTiming ? { BENCH_COMMIT_TIMING: '1' } : {}),
    ...env,
  });
  try {
    await searchIndexAnswers();
    const ordersNow = await databaseReader(ordersUrl);
    const work = await prepare(await ordersNow.stockIds());
    // Enough of each popular size for every order of the run to take one; the product cache may
    // still say less, which matters not: the commit reads the stock row it locks.
    if (hot > 0) await ordersNow.restock(work.hotStockIds, 1_000_000);
    try {
      console.log(`${name}: warming up for ${warmup} s, then the sale for ${duration} s…`);
      if (openMode) {
        await openSale(work, warmup, server.pid as number, ordersNow.count);
        // What the warm-up left in the server's counters is not the sale's.
        await fetch(`${base}/bench/commit-timing`);
        await fetch(`${base}/bench/observed`, { method: 'POST', headers: jsonHeaders, body: '{}' });
        openRows.push({ database: name, ...(await openSale(work, duration, server.pid as number, ordersNow.count)) });
      } else {
        await closedSale(work, warmup, ordersNow.count);
        rows.push({ database: name, ...(await closedSale(work, duration, ordersNow.count)) });
      }
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
    const db = new Sqlite(url.slice('sqlite:'.length));
    return {
      count: async () => (db.prepare('select count(*) as n from orders').get() as { n: number }).n,
      stockIds: async () => (db.prepare(stockSql).all() as Array<{ id: number }>).map((row) => row.id),
      restock: async (ids: number[], units: number) => {
        const update = db.prepare('update product_stocks set stock = ? where id = ?');
        for (const id of ids) update.run(units, id);
      },
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    count: async () => Number((await client.query('select count(*) as n from orders')).rows[0].n),
    stockIds: async () => (await client.query<{ id: number }>(stockSql)).rows.map((row) => row.id),
    restock: async (ids: number[], units: number) =>
      void (await client.query('update product_stocks set stock = $1 where id = any($2::int[])', [units, ids])),
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
    await vacuumSchema(values.postgres, schema.schema);
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
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
if (openMode) printOpen();
else printClosed();

function printClosed(): void {
  console.log(
    [
      `\nA sale, closed loop (${date} UTC): ${products} products, ${crowd.browse} browsing, ${crowd.search} searching, ${crowd.checkout} checking out, ${duration} s\n`,
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
}

function printOpen(): void {
  const lines = [
    `\nA sale, open loop (${date} UTC): ${products} products, offered ${rates.views} views, ${rates.searches} searches and ${rates.orders} orders a second${hot ? `, each order's first line one of ${hot} popular sizes` : ''}, ${duration} s after ${warmup} s unmeasured, at most ${maxInFlight} in flight a crowd\n`,
    '| database | crowd | offered/s | achieved/s | p50 ms | p99 ms | max ms | errors | dropped |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...openRows.flatMap((r) =>
      r.crowds.map(
        (c) =>
          `| ${r.database} | ${c.crowd} | ${c.crowd.startsWith('order,') ? '' : c.offered} | ${c.achieved.toFixed(1)} | ${ms(c.p50)} | ${ms(c.p99)} | ${ms(c.max)} | ${c.errors} | ${c.dropped} |`,
      ),
    ),
    '',
    '| database | orders committed/s | server CPU per request | server CPU, cores | max RSS | event loop p99, max | GC pauses p99, max | load generator late, max |',
    '|---|---:|---:|---:|---:|---|---|---:|',
    ...openRows.map(
      (r) =>
        `| ${r.database} | ${r.committedPerSecond.toFixed(1)} | ${r.cpuMsPerRequest.toFixed(2)} ms | ${r.cpuCores.toFixed(2)} | ${ms(r.maxRssMb)} MB | ${r.observed.loopDelayP99} ms, ${r.observed.loopDelayMax} ms | ${r.observed.gcP99} ms, ${r.observed.gcMax} ms | ${ms(r.maxLateMs)} ms |`,
    ),
    '',
    // A stall shows as many slow answers in one second; a tail as a few in many seconds.
    '| database | answers over 200 ms (views, searches, pricings, commits), by the second of the run they were due in |',
    '|---|---|',
    ...openRows.map((r) => {
      const seconds = [...r.slowBySecond].sort(([a], [b]) => a - b);
      const total = seconds.reduce((sum, [, count]) => sum + count, 0);
      return `| ${r.database} | ${total ? `${total}: ${seconds.map(([second, count]) => `${count} in second ${second}`).join(', ')}` : 'none'} |`;
    }),
  ];
  for (const r of openRows) {
    if (!r.commitTiming) continue;
    lines.push(
      '',
      `Where ${r.database}'s commits spent their time (BENCH_COMMIT_TIMING=1; each phase's own percentiles, so they do not add up):`,
      '',
      '| phase | count | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|---:|',
      ...r.commitTiming.phases.map(
        (p) => `| ${p.phase} | ${p.count} | ${p.p50.toFixed(2)} | ${p.p99.toFixed(2)} | ${p.max.toFixed(2)} |`,
      ),
      ...r.commitTiming.eventLoops.map(
        (loop) =>
          `| event-loop delay, ${loop.thread} (median second's p50 / p99; worst) | | ${loop.p50.toFixed(2)} | ${loop.p99.toFixed(2)} | ${loop.max.toFixed(2)} |`,
      ),
    );
  }
  console.log([...lines, '', ...notes].join('\n'));
}
