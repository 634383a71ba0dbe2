import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { jsonHeaders, seedDatabase, startBenchServer } from './harness.ts';

/**
 * What the metrics cost per request (at most 5% of bench:api's CPU per request: docs/operations.md#what-they-cost). Starts
 * the bench server with metrics off and on, in turn, drives the same routes as bench:api's
 * cheapest and busiest ones, and divides the server process's CPU time (Linux: /proc) by the
 * requests it answered. Rounds alternate off and on, so a machine that gets busier part-way
 * through weighs on both alike.
 *
 *   npm run bench:metrics -- --products 10000 --duration 10 --rounds 2 [--database postgres://...]
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    database: { type: 'string' },
    port: { type: 'string', default: '3778' },
  },
});
const port = Number(values.port);
const dir = mkdtempSync(join(tmpdir(), 'shop-bench-metrics-'));
const databaseUrl = values.database ?? `sqlite:${join(dir, 'bench.db')}`;

/** CPU seconds a process has used, user and system (its /proc stat, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const routes: Array<{ name: string; path: string; options?: Partial<autocannon.Options> }> = [
  { name: 'ceiling (constant JSON)', path: '/bench/ceiling' },
  { name: 'GET /api/products/random/2010/8', path: '/api/products/random/2010/8' },
  {
    name: 'POST /api/search (cached)',
    path: '/api/search',
    options: {
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ title: 'tabla', typeId: [], pageSize: 36 }),
    },
  },
];

async function measure(metrics: boolean): Promise<Map<string, number>> {
  const server = await startBenchServer(databaseUrl, port, metrics ? { METRICS_PORT: String(port + 1) } : {});
  const perRequest = new Map<string, number>();
  try {
    await autocannon({ url: `http://127.0.0.1:${port}/api/products/random/2010/8`, duration: 2, connections: 10 });
    for (const route of routes) {
      const before = cpuSecondsOf(server.pid as number);
      const result = await autocannon({
        url: `http://127.0.0.1:${port}${route.path}`,
        connections: Number(values.connections),
        duration: Number(values.duration),
        ...route.options,
      });
      const cpu = cpuSecondsOf(server.pid as number) - before;
      if (result.non2xx + result.errors > 0) throw new Error(`${route.name}: ${result.non2xx + result.errors} errors`);
      perRequest.set(route.name, (cpu / result.requests.total) * 1e6);
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  return perRequest;
}

await seedDatabase(databaseUrl, Number(values.products));
const samples = { off: [] as Array<Map<string, number>>, on: [] as Array<Map<string, number>> };
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    samples.off.push(await measure(false));
    samples.on.push(await measure(true));
  }
} finally {
  if (!values.database) rmSync(dir, { recursive: true, force: true });
}
const mean = (maps: Array<Map<string, number>>, name: string) =>
  maps.reduce((sum, map) => sum + (map.get(name) ?? 0), 0) / maps.length;
console.log(`\nServer CPU per request, µs (${values.rounds} rounds of each, ${values.duration} s per route)\n`);
console.log('| route | metrics off | metrics on | difference |');
console.log('|---|---:|---:|---:|');
for (const { name } of routes) {
  const off = mean(samples.off, name);
  const on = mean(samples.on, name);
  console.log(`| ${name} | ${off.toFixed(1)} | ${on.toFixed(1)} | ${(((on - off) / off) * 100).toFixed(1)}% |`);
}
