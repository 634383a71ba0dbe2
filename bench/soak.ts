import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  browseAndSearchMix,
  crowdTypes,
  freshPostgresSchema,
  jsonHeaders,
  rotate,
  seedDatabase,
  startBenchServer,
} from './harness.ts';

/**
 * Soak benchmark (part of npm run bench): a mixed shopper workload against the server in
 * production mode, on SQLite and then on PostgreSQL, for 2 minutes each at 100 connections:
 * browsing 70% of the connections, searching 20%, basket and checkout 10% (each checkout
 * connection re-prices its basket twice and then commits an order). The three run at once, so
 * they contend as a sale-day crowd would; each prints its own throughput, p50, p99 and errors.
 *
 *   npm run bench:soak -- [--duration 120] [--connections 100] [--products 10000]
 *                         [--postgres postgres://postgres@127.0.0.1:5432/test | --postgres none]
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '120' },
    connections: { type: 'string', default: '100' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    port: { type: 'string', default: '3778' },
  },
});
const products = Number(values.products);
const duration = Number(values.duration);
const connections = Number(values.connections);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

interface Row {
  workload: string;
  connections: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

async function get<T>(path: string): Promise<T> {
  return (await (await fetch(`${base}${path}`)).json()) as T;
}

type Workload = [name: string, connections: number, requests: autocannon.Options['requests']];

/** The three workloads, built from the seeded catalogue. */
async function prepareWorkloads(): Promise<Workload[]> {
  const found = (await (
    await fetch(`${base}/api/search`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ pageSize: 100 }) })
  ).json()) as { results: Array<{ id: number; urlKey: string }> };
  const inStock: number[] = [];
  for (const type of crowdTypes) {
    const listed = await get<Array<{ stocks: Array<{ id: number; stock: number }> }>>(
      `/api/products/random/${type}/20`,
    );
    inStock.push(...listed.flatMap((p) => p.stocks.filter((s) => s.stock > 0).map((s) => s.id)));
  }

  const { nextBrowse, nextSearch } = browseAndSearchMix(found.results);
  const nextStock = rotate(inStock);
  const address = { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };
  const guest = {
    titleId: 1,
    firstname: 'Soak',
    lastname: 'Test',
    email: 'soak@example.com',
    contactNumber: '0121 496 0000',
  };
  const basket = () => ({
    items: [nextStock(), nextStock()].map((productStockId) => ({ productStockId, requestedQty: 1 })),
    deliveryAddress: address,
    deliveryMethodRateId: 3,
  });

  const share = (part: number) => Math.max(1, Math.round(connections * part));
  return [
    ['browse', share(0.7), [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextBrowse() }) }]],
    [
      'search',
      share(0.2),
      [
        {
          method: 'POST',
          path: '/api/search',
          headers: jsonHeaders,
          setupRequest: (req) => ({ ...req, body: nextSearch() }),
        },
      ],
    ],
    [
      'basket and checkout',
      share(0.1),
      [
        {
          method: 'POST',
          path: '/api/verify-basket',
          headers: jsonHeaders,
          setupRequest: (req) => ({ ...req, body: JSON.stringify(basket()) }),
        },
        {
          method: 'POST',
          path: '/api/verify-basket',
          headers: jsonHeaders,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...basket(), guest, billingAddress: address }) }),
        },
        {
          method: 'POST',
          path: '/api/basket',
          headers: jsonHeaders,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...basket(), guest, billingAddress: address }) }),
        },
      ],
    ],
  ];
}

/** The workloads run together for `seconds`, each measured on its own. */
async function soak(workloads: Workload[], seconds: number): Promise<Row[]> {
  const results = await Promise.all(
    workloads.map(([, count, requests]) =>
      autocannon({ url: base, connections: count, duration: seconds, ...(requests ? { requests } : {}) }),
    ),
  );
  return results.map((result, i) => ({
    workload: workloads[i]![0],
    connections: workloads[i]![1],
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  }));
}

function postgresAnswers(url: string): Promise<boolean> {
  const { hostname, port: pgPort } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(pgPort || 5432) });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const databases: Array<{ name: string; open(): Promise<{ url: string; close(): Promise<void> }> }> = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'shop-soak-'));
      return {
        url: `sqlite:${join(dir, 'soak.db')}`,
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
];
if (values.postgres !== 'none' && (await postgresAnswers(values.postgres))) {
  databases.push({
    name: 'PostgreSQL',
    async open() {
      const schema = await freshPostgresSchema(values.postgres);
      return { url: schema.url, close: () => schema.drop() };
    },
  });
} else {
  console.log('PostgreSQL: skipped (nothing answers, or --postgres none)');
}

const tables: string[] = [];
for (const database of databases) {
  const opened = await database.open();
  try {
    await seedDatabase(opened.url, products);
    const server = await startBenchServer(opened.url, port);
    try {
      // The same crowd for 10 s first, unmeasured: the soak measures a running shop, not cold caches.
      const workloads = await prepareWorkloads();
      console.log(
        `${database.name}: warming up for 10 s, then soaking for ${duration} s at ${connections} connections…`,
      );
      await soak(workloads, 10);
      const rows = await soak(workloads, duration);
      tables.push(
        [
          `\n${database.name}, ${products} products, ${connections} connections, ${duration} s\n`,
          '| workload | connections | req/s | p50 ms | p99 ms | errors |',
          '|---|---:|---:|---:|---:|---:|',
          ...rows.map(
            (r) =>
              `| ${r.workload} | ${r.connections} | ${Math.round(r.requests)} | ${r.p50} | ${r.p99} | ${r.errors} |`,
          ),
        ].join('\n'),
      );
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  } finally {
    await opened.close();
  }
}
console.log(tables.join('\n'));
