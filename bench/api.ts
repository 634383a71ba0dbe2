import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { jsonHeaders, rotate, seedDatabase, startBenchServer } from './harness.ts';

/**
 * API benchmark (npm run bench). Seeds a catalogue (default 10,000 products) into a fresh
 * database, starts the server in its own process, and drives each route with autocannon,
 * printing req/s, p50 and p99 and each route's throughput as a share of the ceiling route.
 *
 *   npm run bench -- --products 10000 --duration 10 --connections 50 [--database postgres://...]
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    database: { type: 'string' },
    port: { type: 'string', default: '3777' },
  },
});
const products = Number(values.products);
const duration = Number(values.duration);
const connections = Number(values.connections);
const port = Number(values.port);

const dir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
const databaseUrl = values.database ?? `sqlite:${join(dir, 'bench.db')}`;

interface Row {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(name: string, path: string, options: Partial<autocannon.Options> = {}): Promise<Row> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections,
    duration,
    ...options,
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

await seedDatabase(databaseUrl, products);
// One proxy in front, as in production: the verify-basket run sends each request from a different
// shopper's address, since a voucher is checked at most 20 times a minute from one client.
const server = await startBenchServer(databaseUrl, port, { TRUST_PROXY: 'true' });
try {
  const keys: string[] = [];
  const search = await fetch(`http://127.0.0.1:${port}/api/search`, {
    method: 'POST',
    headers: jsonHeaders,
    body: JSON.stringify({ pageSize: 100 }),
  });
  for (const product of ((await search.json()) as { results: Array<{ urlKey: string }> }).results)
    keys.push(product.urlKey);

  const searches = rotate([
    { title: 'dhol', typeId: [2010] },
    { title: 'tabla', typeId: [1002] },
    { title: 'harmonium', typeId: [1003] },
    { title: 'sitar', typeId: [1001] },
    { title: 'baja', typeId: [2017] },
    { title: 'bansuri', typeId: [1004] },
  ]);
  const nextKey = rotate(keys);
  const json = jsonHeaders;

  // A short warm-up so the first route does not pay for cold caches.
  await run('warm-up', '/api/products/random/2010/8', { duration: 2 });
  const rows: Row[] = [];
  rows.push(await run('ceiling (constant JSON)', '/bench/ceiling'));
  rows.push(
    await run('POST /api/search (keyword + type)', '/api/search', {
      requests: [
        {
          method: 'POST',
          path: '/api/search',
          headers: json,
          setupRequest: (req) => ({ ...req, body: JSON.stringify(searches()) }),
        },
      ],
    }),
  );
  // Every request a different keyword and page: what the search costs when no cache can help.
  const words = [
    'dhol',
    'tabla',
    'harmonium',
    'sitar',
    'baja',
    'bansuri',
    'wood',
    'set',
    'professional',
    'student',
    'case',
    'copper',
    'brass',
    'folding',
    'travel',
    'strings',
  ];
  let miss = 0;
  rows.push(
    await run('POST /api/search, never cached', '/api/search', {
      requests: [
        {
          method: 'POST',
          headers: json,
          setupRequest: (req) => {
            miss++;
            const title =
              `${words[miss % words.length]} ${words[Math.floor(miss / words.length) % words.length]}`.slice(
                0,
                3 + (miss % 8),
              );
            return { ...req, body: JSON.stringify({ title, pageNumber: 1 + (miss % 50) }) };
          },
        },
      ],
    }),
  );
  rows.push(
    await run('GET /api/products/{urlKey}', '/api/products', {
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/products/${nextKey()}` }) }],
    }),
  );
  rows.push(await run('GET /api/products/random/2010/8', '/api/products/random/2010/8'));

  // A shopper's basket at checkout: 3 lines, a voucher and a delivery choice, re-priced every time.
  const stockIds = (
    (await (await fetch(`http://127.0.0.1:${port}/api/products/random/1001/12`)).json()) as Array<{
      stocks: Array<{ id: number; stock: number }>;
    }>
  )
    .flatMap((p) => p.stocks.filter((s) => s.stock > 0).map((s) => s.id))
    .slice(0, 3);
  const basket = JSON.stringify({
    items: stockIds.map((productStockId) => ({ productStockId, requestedQty: 1 })),
    deliveryAddress: { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 },
    deliveryMethodRateId: 3,
    appliedVouchers: [{ code: 'TENOFF' }],
  });
  // 65,536 shoppers, each re-pricing their basket a few times in the run.
  let shopper = 0;
  const nextShopperAddress = () => {
    shopper = (shopper + 1) % 65_536;
    return `10.1.${shopper >> 8}.${shopper & 255}`;
  };
  rows.push(
    await run('POST /api/verify-basket (3 lines, voucher, delivery)', '/api/verify-basket', {
      requests: [
        {
          method: 'POST',
          body: basket,
          setupRequest: (req) => ({ ...req, headers: { ...json, 'x-forwarded-for': nextShopperAddress() } }),
        },
      ],
    }),
  );

  const ceiling = rows[0]?.requests ?? 1;
  console.log(
    `\n${products} products, ${connections} connections, ${duration} s per route, ${databaseUrl.split(':')[0]}\n`,
  );
  console.log('| route | req/s | p50 ms | p99 ms | errors | share of ceiling |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${Math.round(row.requests)} | ${row.p50} | ${row.p99} | ${row.errors} | ${((row.requests / ceiling) * 100).toFixed(0)}% |`,
    );
  }
} finally {
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
