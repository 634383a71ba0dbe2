import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { jsonHeaders, rotate, seedDatabase, startBenchServer } from './harness.ts';

/**
 * Page HTML benchmark (npm run bench:page-html, part of npm run bench): product pages as the server
 * sends them, drawn on the server with their data (docs/decisions/0021-server-rendering.md), at 50
 * connections, compressed as a browser asks. Seeds a catalogue (default 10,000 products), then
 * runs three ways: one product page, product pages rotating over 100 products (each kept by the
 * instance for PAGE_CACHE_SECONDS once drawn), and the same rotation with the page cache off
 * (every answer gathered, drawn or remembered, and compressed for its request). Issue 18's
 * target: >= 1,500 req/s and p99 <= 50 ms.
 *
 *   npm run bench:page-html -- --products 10000 --duration 10 --connections 50
 */
const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    port: { type: 'string', default: '3779' },
  },
});
const products = Number(values.products);
const duration = Number(values.duration);
const connections = Number(values.connections);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

if (!existsSync('dist/ssr/entry-server.js')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

interface Row {
  name: string;
  requests: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  kilobytes: number;
}

async function run(name: string, path: string, options: Partial<autocannon.Options> = {}): Promise<Row> {
  const result = await autocannon({
    url: `${base}${path}`,
    connections,
    duration,
    headers: { 'accept-encoding': 'br, gzip' },
    ...options,
  });
  return {
    name,
    requests: result.requests.average,
    p50: result.latency.p50,
    p975: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    kilobytes: result.throughput.average / Math.max(1, result.requests.average) / 1024,
  };
}

async function productKeys(): Promise<string[]> {
  const search = await fetch(`${base}/api/search`, {
    method: 'POST',
    headers: jsonHeaders,
    body: JSON.stringify({ pageSize: 100 }),
  });
  return ((await search.json()) as { results: Array<{ urlKey: string }> }).results.map((product) => product.urlKey);
}

/** Checks that a product page comes drawn, so the figures are for pages drawn on the server. */
async function checkDrawn(key: string): Promise<void> {
  const html = await (await fetch(`${base}/products/${key}`)).text();
  if (!/<div id="root"><div /.test(html)) throw new Error('the product page was not drawn on the server');
}

const dir = mkdtempSync(join(tmpdir(), 'shop-page-html-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const rows: Row[] = [];
let server: ChildProcess | undefined;
try {
  await seedDatabase(databaseUrl, products);
  for (const pageCacheSeconds of ['5', '0']) {
    server = await startBenchServer(databaseUrl, port, { PAGE_CACHE_SECONDS: pageCacheSeconds, LOG_LEVEL: 'warn' });
    const keys = await productKeys();
    const one = keys[0] as string;
    await checkDrawn(one);
    const nextKey = rotate(keys);
    const rotating = { requests: [{ setupRequest: (req: object) => ({ ...req, path: `/products/${nextKey()}` }) }] };
    // Warm: every page drawn once (the renderer's memo), and the JIT.
    await run('warm-up', '/products', { ...rotating, duration: 3 });
    if (pageCacheSeconds !== '0') {
      rows.push(await run('one product page', `/products/${one}`));
      rows.push(await run(`${keys.length} product pages in turn`, '/products', rotating));
    } else {
      rows.push(await run(`${keys.length} product pages in turn, page cache off`, '/products', rotating));
    }
    server.kill('SIGTERM');
    await new Promise((resolve) => server?.once('exit', resolve));
    server = undefined;
  }
  console.log(
    `\nProduct page HTML (drawn on the server, brotli), ${products} products, ${connections} connections, ${duration} s each, SQLite\n`,
  );
  console.log('| pages | req/s | p50 ms | p97.5 ms | p99 ms | errors | kB a page |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${Math.round(row.requests)} | ${row.p50} | ${row.p975} | ${row.p99} | ${row.errors} | ${row.kilobytes.toFixed(1)} |`,
    );
  }
  console.log('\nTarget (issue 18): >= 1,500 req/s and p99 <= 50 ms with the page cache on.');
} finally {
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
