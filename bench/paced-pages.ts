import { pacedRequests, rotate } from './harness.ts';

/**
 * A shopper's stream of pages at an even pace (pacedRequests), in a process of its own
 * (bench:search): in the process that sends the searches its timings would include that process's
 * own queue. Given its work as its first message, it warms up and says 'ready'; told 'go', it runs
 * and answers with p50, p99 and the failed calls.
 */
const { base, paths, perSecond, seconds } = await new Promise<{
  base: string;
  paths: string[];
  perSecond: number;
  seconds: number;
}>((resolve) => process.once('message', resolve as (message: unknown) => void));
const nextPath = rotate(paths);
// Untimed first requests: this thread's first one opens its connection and compiles fetch (about
// 40 ms, measured alone as well as under load), which is the load generator's start, not the server.
for (const path of paths.slice(0, 5)) await (await fetch(`${base}${path}`)).arrayBuffer();
// The clock starts with the load beside it, not while this process was starting.
await new Promise((resolve) => {
  process.once('message', resolve);
  process.send?.('ready');
});
const { p50, p99, errors } = await pacedRequests(
  () => fetch(`${base}${nextPath()}`, { signal: AbortSignal.timeout(10_000) }),
  perSecond,
  seconds,
);
process.send?.({ p50, p99, errors }, () => process.disconnect());
