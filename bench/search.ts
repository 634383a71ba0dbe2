import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/database.ts';
import { productLines } from '../src/server/catalog/demo/catalogue-data.ts';
import { jsonHeaders, pacedRequests, rotate, seedDatabase, startBenchServer } from './harness.ts';

/**
 * Search at scale (npm run bench:search; docs/decisions/0017-in-process-search-index.md): a large catalogue (100,000 products by
 * default), production mode with the search and catalogue caches off, so every search is worked
 * out by the index. A rotating mix of searches runs at an offered rate and then closed-loop, while a
 * light stream of product pages runs beside it on the same instance: a search that blocks the event
 * loop shows as the product pages' p99. Prints req/s, p50/p97.5/p99, errors, the server's CPU per
 * search and its resident memory.
 *
 *   npm run bench:search [-- --products 100000 --duration 20 --rate 100 --connections 50]
 *   npm run bench:search -- --database postgres://postgres@127.0.0.1:5432/bench_search
 *
 * The SQLite catalogue is seeded once into --cache-dir and copied for each run; a PostgreSQL
 * database is seeded when it is empty and reused after that.
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '20' },
    rate: { type: 'string', default: '100' },
    connections: { type: 'string', default: '50' },
    database: { type: 'string' },
    'cache-dir': { type: 'string', default: join(tmpdir(), 'shop-bench-cache') },
    port: { type: 'string', default: '3950' },
  },
});
const products = Number(values.products);
const duration = Number(values.duration);
const rate = Number(values.rate);
const connections = Number(values.connections);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

/** Seeds the SQLite catalogue once per product count and generator version, then copies it for this run. */
async function sqliteCatalogue(runDir: string): Promise<string> {
  const generator = ['generate-products.ts', 'catalogue-data.ts'].map((file) =>
    readFileSync(new URL(`../src/server/catalog/demo/${file}`, import.meta.url)),
  );
  const version = createHash('sha256').update(Buffer.concat(generator)).digest('hex').slice(0, 12);
  const cacheDir = values['cache-dir'];
  mkdirSync(cacheDir, { recursive: true });
  const cached = join(cacheDir, `search-${products}-${version}.db`);
  if (!existsSync(cached)) {
    const partial = `${cached}.partial`;
    rmSync(partial, { force: true });
    await seedDatabase(`sqlite:${partial}`, products);
    renameSync(partial, cached);
  } else console.log(`using the catalogue seeded before: ${cached}`);
  // The server migrates and analyses the database it is given; the cached copy stays as seeded.
  const copy = join(runDir, 'bench.db');
  copyFileSync(cached, copy);
  return `sqlite:${copy}`;
}

async function postgresCatalogue(url: string): Promise<string> {
  await seedDatabase(url, products);
  const db = openDatabase(url);
  // After a bulk load, what autovacuum would soon do: without the vacuum (a server with autovacuum
  // off never gets one), reads check each row's visibility in the heap: measured 2026-11-24, 100/s
  // evenly p97.5 77 ms without it and 43 ms with it, closed loop 246/s and 306/s.
  await sql`vacuum analyze`.execute(db.kysely);
  const counted = await db.kysely
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  await db.destroy();
  if (Number(counted.n) !== products)
    console.log(`note: the database holds ${counted.n} products, not ${products}; drop it to seed afresh`);
  return url;
}

interface SearchBody {
  title?: string;
  typeId?: number[];
  brandId?: number[];
  pageNumber?: number;
  pageSize?: number;
  /** Sent from the start: the server ignores it until it sorts. */
  sort?: 'relevance' | 'price-asc' | 'price-desc' | 'newest';
}

/**
 * The mix, each kind a few times over: broad words (a fifth of the catalogue or more), narrow
 * phrases from real titles, synonyms and transliterations, typos, type and brand filters, every
 * sort order, page 1 and page 40.
 */
function searchMix(): Array<{ kind: string; body: SearchBody }> {
  const titles = productLines.flatMap((line) => line.models.map(([title]) => title));
  const phrases = titles
    .filter((_, i) => i % 17 === 3)
    .map((title) => title.split(/\s+/).slice(0, 3).join(' '))
    .slice(0, 8);
  return [
    ...['drum', 'string instrument', 'dhol', 'tabla', 'harmonium', 'case', 'wood', 'brass'].flatMap((title) => [
      { kind: 'broad', body: { title } },
      { kind: 'broad, page 40', body: { title, pageNumber: 40 } },
    ]),
    ...phrases.map((title) => ({ kind: 'phrase', body: { title } })),
    ...['baja', 'peti', 'dholki', 'tambura', 'bansri', 'santur', 'khartal', 'shenai'].map((title) => ({
      kind: 'synonym',
      body: { title },
    })),
    ...['harmonum', 'tabal', 'sitaar', 'mridngam', 'santorr', 'bansuir'].map((title) => ({
      kind: 'typo',
      body: { title },
    })),
    { kind: 'type', body: { typeId: [1002] } },
    { kind: 'type', body: { typeId: [2017], pageNumber: 40 } },
    { kind: 'keyword + type', body: { title: 'dhol', typeId: [1002] } },
    { kind: 'keyword + type', body: { title: 'wood', typeId: [1001] } },
    { kind: 'keyword + type', body: { title: 'drum', typeId: [2035, 2008] } },
    { kind: 'brand', body: { brandId: [1] } },
    { kind: 'keyword + brand', body: { title: 'dhol', brandId: [4] } },
    { kind: 'keyword + brand', body: { title: 'drum', brandId: [1, 2] } },
    { kind: 'keyword + type + brand', body: { title: 'sitar', typeId: [1001], brandId: [3] } },
    { kind: 'sort', body: { title: 'drum', sort: 'price-asc' } },
    { kind: 'sort', body: { title: 'harmonium', sort: 'price-desc', pageNumber: 40 } },
    { kind: 'sort', body: { sort: 'newest' } },
    { kind: 'sort', body: { typeId: [1002], sort: 'price-asc', pageNumber: 40 } },
  ];
}

/** The server's CPU seconds so far and its resident memory, from /proc. */
function processStats(pid: number): { cpuSeconds: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; in clock ticks (100 Hz).
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuSeconds, rssMb: Number(rss ?? 0) / 1024 };
}

interface Row {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  cpuMsPerSearch: number;
  rssMb: number;
  productP99: number;
  productErrors: number;
  observed: Observed;
}

/** What the server saw of a run (bench/server.ts). */
interface Observed {
  loopDelayP99: number;
  loopDelayMax: number;
  gcPauses: number;
  gcP99: number;
  gcMax: number;
  gcTotalMs: number;
  scavenges: number;
  scavengeP99: number;
  productPages: number;
  productPageP99: number;
  productPageMax: number;
}

/** Whether the product pages' client could be run ahead of the load generator (productPages). */
let pagesPriority = 'not set';
const runDir = mkdtempSync(join(tmpdir(), 'shop-bench-search-'));
const databaseUrl = values.database ? await postgresCatalogue(values.database) : await sqliteCatalogue(runDir);
const server = await startBenchServer(databaseUrl, port, { SEARCH_CACHE_SECONDS: '0', CATALOG_CACHE_SECONDS: '0' });
const pid = server.pid;
if (pid === undefined) throw new Error('the benchmark server has no process id');

try {
  const search = (body: SearchBody) =>
    fetch(`${base}/api/search`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) });
  const keys: string[] = [];
  for (const pageNumber of [1, 50, 500]) {
    const page = (await (await search({ pageNumber, pageSize: 100 })).json()) as {
      results: Array<{ urlKey: string }>;
    };
    keys.push(...page.results.map((product) => product.urlKey));
  }
  // The server builds its search index after it starts and answers from the database meanwhile,
  // which has no typo tolerance: once a typo finds products, the index answers (ADR 0017).
  const buildStarted = Date.now();
  while (Date.now() - buildStarted < 120_000) {
    const probe = (await (await search({ title: 'harmonum' })).json()) as { totalResults: number };
    if (probe.totalResults > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.log(
    `the search index answered ${((Date.now() - buildStarted) / 1000).toFixed(1)} s after the server listened`,
  );
  const mix = searchMix();
  console.log(`\nthe mix (${mix.length} searches, in turn), each with what it finds:`);
  for (const { kind, body } of mix) {
    const started = performance.now();
    const answer = (await (await search(body)).json()) as { totalResults: number };
    console.log(
      `  ${kind.padEnd(22)} ${JSON.stringify(body).padEnd(60)} ${String(answer.totalResults).padStart(6)} found, ${(performance.now() - started).toFixed(0)} ms alone`,
    );
  }
  const nextSearch = rotate(mix.map(({ body }) => JSON.stringify(body)));
  const searchRequests: autocannon.Request[] = [
    {
      method: 'POST',
      path: '/api/search',
      headers: jsonHeaders,
      setupRequest: (req) => ({ ...req, body: nextSearch() }),
    },
  ];
  // A shopper's product page every 50 ms, beside the searches, from a process of its own
  // (bench/paced-pages.ts) that the machine runs before the load generator: a shopper's browser is
  // not queued behind 50 connections of searches on its own CPU, and on two cores shared by the
  // server, the database and the load generator, the pages' client was (measured 2026-11-24:
  // product pages answered within 2 to 19 ms of the server reading them, p99, and 24 to 36 ms as
  // that client timed them). The server runs at its usual priority.
  /** The product pages' client, forked and warmed up; `run()` starts its clock. */
  async function productPages(seconds: number) {
    const pages = fork(new URL('./paced-pages.ts', import.meta.url), { stdio: 'inherit' });
    if (pages.pid === undefined) throw new Error("the product pages' client did not start");
    try {
      setPriority(pages.pid, -10);
      pagesPriority = 'raised (nice -10)';
    } catch {
      pagesPriority = 'normal (raising it needs root)';
    }
    const exited = new Promise<never>((_, reject) =>
      pages.once('exit', (code) => reject(new Error(`the product pages' client exited with ${code}`))),
    );
    exited.catch(() => undefined);
    const message = () => Promise.race([new Promise<unknown>((resolve) => pages.once('message', resolve)), exited]);
    pages.send({ base, paths: keys.map((key) => `/api/products/${key}`), perSecond: 20, seconds });
    await message();
    return {
      async run() {
        pages.send('go');
        return (await message()) as { p50: number; p99: number; errors: number };
      },
    };
  }

  const idleRssMb = processStats(pid).rssMb;
  // Warm-up: SQLite's page cache, PostgreSQL's buffers and the JIT.
  await autocannon({ url: base, connections: 10, duration: 3, requests: searchRequests });

  const alone = await (await productPages(5)).run();
  console.log(
    `\nserver RSS before the runs ${Math.round(idleRssMb)} MB; product pages alone: p50 ${alone.p50} ms, p99 ${alone.p99} ms`,
  );

  type SearchLoad = Pick<autocannon.Result, 'errors' | 'timeouts' | 'non2xx'> & {
    requests: Pick<autocannon.Result['requests'], 'total' | 'average'>;
    latency: Pick<autocannon.Result['latency'], 'p50' | 'p97_5' | 'p99'>;
  };

  /** Searches at an even pace (pacedRequests), each sent when its turn comes whatever the answers before it. */
  async function pacedSearches(perSecond: number, seconds: number): Promise<SearchLoad> {
    const paced = await pacedRequests(
      () =>
        fetch(`${base}/api/search`, {
          method: 'POST',
          headers: jsonHeaders,
          body: nextSearch(),
          signal: AbortSignal.timeout(10_000),
        }),
      perSecond,
      seconds,
    );
    return {
      requests: { total: paced.total, average: (paced.total - paced.errors) / seconds },
      latency: { p50: paced.p50, p97_5: paced.p975, p99: paced.p99 },
      errors: paced.errors,
      timeouts: 0,
      non2xx: 0,
    };
  }

  const observed = async () =>
    (await (
      await fetch(`${base}/bench/observed`, { method: 'POST', headers: jsonHeaders, body: '{}' })
    ).json()) as Observed;

  async function measure(name: string, load: () => Promise<SearchLoad>): Promise<Row> {
    const pagesClient = await productPages(duration);
    // From here on, this run's figures: the client's warm-up is not in them.
    await observed();
    let rssMb = processStats(pid!).rssMb;
    const sampler = setInterval(() => (rssMb = Math.max(rssMb, processStats(pid!).rssMb)), 250);
    const before = processStats(pid!).cpuSeconds;
    const [searches, pages] = await Promise.all([load(), pagesClient.run()]);
    const cpuSeconds = processStats(pid!).cpuSeconds - before;
    clearInterval(sampler);
    const seen = await observed();
    return {
      name,
      requests: searches.requests.total,
      rps: searches.requests.average,
      p50: searches.latency.p50,
      p975: searches.latency.p97_5,
      p99: searches.latency.p99,
      errors: searches.errors + searches.timeouts + searches.non2xx,
      // The product pages' share is in it too: 20 a second, each far cheaper than a search.
      cpuMsPerSearch: (cpuSeconds * 1000) / Math.max(1, searches.requests.total),
      rssMb,
      productP99: pages.p99,
      productErrors: pages.errors,
      observed: seen,
    };
  }

  // Enough connections that a slow answer does not lower the offered rate much.
  const rows = [
    await measure(`${rate}/s offered, evenly`, () => pacedSearches(rate, duration)),
    // As the bench measured it before: the same rate from autocannon, in bursts (see pacedSearches).
    await measure(`${rate}/s offered, autocannon`, () =>
      autocannon({
        url: base,
        duration,
        requests: searchRequests,
        connections: Math.max(10, Math.ceil(rate / 2)),
        overallRate: rate,
      }),
    ),
    await measure(`closed loop, ${connections} connections`, () =>
      autocannon({ url: base, duration, requests: searchRequests, connections }),
    ),
  ];

  console.log(
    `\n${products} products, ${databaseUrl.split(':')[0]}, ${duration} s a run, caches off; product pages' client at ${pagesPriority} priority; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
  );
  console.log(
    '| searches | req/s | p50 ms | p97.5 ms | p99 ms | errors | server CPU ms/search | server RSS MB | product page p99 ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${Math.round(row.rps)} | ${row.p50} | ${row.p975} | ${row.p99} | ${row.errors} | ${row.cpuMsPerSearch.toFixed(1)} | ${Math.round(row.rssMb)} | ${row.productP99}${row.productErrors ? ` (${row.productErrors} errors)` : ''} |`,
    );
  }
  console.log(
    '\nas the server saw it: event-loop delay, its garbage-collection pauses, product pages from reading the request to the answer\n',
  );
  console.log(
    '| searches | loop delay p99 / max ms | GC pauses (scavenges) | GC p99 / max ms | scavenges p99 ms | GC total ms | product pages (server) p99 / max ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const { name, observed: o } of rows) {
    console.log(
      `| ${name} | ${o.loopDelayP99} / ${o.loopDelayMax} | ${o.gcPauses} (${o.scavenges}) | ${o.gcP99} / ${o.gcMax} | ${o.scavengeP99} | ${o.gcTotalMs} | ${o.productPageP99} / ${o.productPageMax} (${o.productPages}) |`,
    );
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(runDir, { recursive: true, force: true });
}
