import { parentPort, workerData } from 'node:worker_threads';
import { pacedRequests, rotate } from './harness.ts';

/**
 * A shopper's stream of pages at an even pace (pacedRequests), in a worker thread of its own
 * (bench:search): in the thread that sends the searches its timings would include that thread's
 * own queue. Posts p50, p99 and the failed calls.
 */
const { base, paths, perSecond, seconds } = workerData as {
  base: string;
  paths: string[];
  perSecond: number;
  seconds: number;
};
const nextPath = rotate(paths);
// Untimed first requests: this thread's first one opens its connection and compiles fetch (about
// 40 ms, measured alone as well as under load), which is the load generator's start, not the server.
for (const path of paths.slice(0, 5)) await (await fetch(`${base}${path}`)).arrayBuffer();
const { p50, p99, errors } = await pacedRequests(
  () => fetch(`${base}${nextPath()}`, { signal: AbortSignal.timeout(10_000) }),
  perSecond,
  seconds,
);
parentPort?.postMessage({ p50, p99, errors });
