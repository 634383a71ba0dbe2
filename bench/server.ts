import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import {
  addCommitPhase,
  commitTimingOn,
  poolWaitPhase,
  commitTimingSummary,
  publishCommitPhases,
} from '../src/server/orders/commit-timing.ts';
import { jsonHeaders } from './harness.ts';

/**
 * The benchmark's server: the real app, plus a bare route answering a constant JSON body of the
 * same size as a search answer. That route is the ceiling every other route is measured against.
 */
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', SEED_DEMO: 'false' });
const db = openDatabase(config.databaseUrl, {
  poolSize: config.databasePoolSize,
  checkoutPoolSize: config.databaseCheckoutPoolSize,
  // BENCH_COMMIT_TIMING=1: a commit's wait for a connection here (SQLite's one, or PostgreSQL's
  // money-path pool when the checkout thread is off) is one of its phases.
  ...(commitTimingOn
    ? { onConnectionWait: (ms: number, opened: boolean) => addCommitPhase(poolWaitPhase(opened), ms) }
    : {}),
});
await migrateToLatest(db);
const app = await buildApp({ config, db });

let constant: unknown = null;
app.get('/bench/ceiling', () => constant);
// Where the server's memory is (V8's heap, array buffers, the rest), for the benches to print.
app.get('/bench/memory', () => ({
  ...process.memoryUsage(),
  ...Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size])),
}));

/**
 * What the server saw of a run (bench:search prints it beside the client's figures): how late the
 * event loop was, the main thread's garbage-collection pauses, and how long product pages took
 * from the request's parsing to the end of the answer. That last figure starts once the event loop
 * has read the request: the wait before it (up to the loop's delay) is the server's too, but is not
 * in it.
 */
const loopDelay = monitorEventLoopDelay({ resolution: 2 });
loopDelay.enable();
let gcPauses: number[] = [];
/** The young generation's collections (scavenges) apart: their length is what survives them. */
let scavenges: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcPauses.push(entry.duration);
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
      scavenges.push(entry.duration);
  }
}).observe({
  entryTypes: ['gc'],
});
let productPageMs: number[] = [];
app.server.prependListener(
  'request',
  (request: { url?: string }, response: { once(event: 'finish', then: () => void): void }) => {
    if (!request.url?.startsWith('/api/products/')) return;
    const arrived = performance.now();
    response.once('finish', () => productPageMs.push(performance.now() - arrived));
  },
);
/**
 * With BENCH_COMMIT_TIMING=1, where checkout commits spent their time (src/server/orders/commit-timing.ts),
 * including the main thread's whole part: from the request's arrival to the end of its answer.
 */
if (commitTimingOn) {
  app.server.prependListener(
    'request',
    (request: { url?: string; method?: string }, response: { once(event: 'finish', then: () => void): void }) => {
      if (request.method !== 'POST' || request.url !== '/api/basket') return;
      const arrived = performance.now();
      response.once('finish', () =>
        publishCommitPhases({ 'server: request arrived to answer sent': performance.now() - arrived }),
      );
    },
  );
}
app.get('/bench/commit-timing', () => (commitTimingOn ? commitTimingSummary() : null));

const quantile = (values: number[], q: number) =>
  Number(
    ([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0).toFixed(1),
  );
app.post('/bench/observed', () => {
  const seen = {
    loopDelayP99: Number((loopDelay.percentile(99) / 1e6).toFixed(1)),
    loopDelayMax: Number((loopDelay.max / 1e6).toFixed(1)),
    gcPauses: gcPauses.length,
    gcP99: quantile(gcPauses, 0.99),
    gcMax: quantile(gcPauses, 1),
    gcTotalMs: Math.round(gcPauses.reduce((sum, ms) => sum + ms, 0)),
    scavenges: scavenges.length,
    scavengeP99: quantile(scavenges, 0.99),
    productPages: productPageMs.length,
    productPageP99: quantile(productPageMs, 0.99),
    productPageMax: quantile(productPageMs, 1),
  };
  loopDelay.reset();
  gcPauses = [];
  scavenges = [];
  productPageMs = [];
  return seen;
});

const sample = await app.inject({
  method: 'POST',
  url: '/api/search',
  payload: { title: '', typeId: [], pageSize: 36 },
  headers: { cookie: jsonHeaders.cookie, 'x-xsrf-token': jsonHeaders['x-xsrf-token'] },
});
constant = sample.json();

await app.listen({ port: config.port, host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => db.destroy())
      .then(() => process.exit(0)),
);
