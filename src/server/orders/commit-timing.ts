import { AsyncLocalStorage } from 'node:async_hooks';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

/**
 * Where a checkout commit's time goes, for `npm run bench:sale` (issue 39): opt-in with
 * BENCH_COMMIT_TIMING=1 in the server's environment, read once when this module loads. Off (the
 * default, and always in production), every function here is a constant check and a direct call:
 * no clock is read, no storage or channel exists and nothing is kept.
 *
 * On, each commit's phases are added up in a record (an AsyncLocalStorage follows the commit across
 * its awaits, since the checkout thread runs several at once): the wait for a pooled connection,
 * each statement of the transaction, BEGIN and COMMIT, and the crossings to and from the checkout
 * thread. Records made in the checkout thread cross to the main thread on a BroadcastChannel; the
 * main thread keeps them until the bench asks for the summary (bench/server.ts, /bench/commit-timing).
 * This is a debugging measure, not a configuration of the shop, so it is not in config.ts.
 */
export const commitTimingOn = process.env.BENCH_COMMIT_TIMING === '1';

type Phases = Record<string, number>;

const CHANNEL = 'shop-commit-timing';
const current = commitTimingOn ? new AsyncLocalStorage<Phases>() : undefined;

/** The main thread's samples, per phase, and the event-loop delays seen by each thread. */
const samples = new Map<string, number[]>();
const loops = new Map<string, { p50: number[]; p99: number[]; max: number }>();

function keep(phases: Phases): void {
  for (const [phase, ms] of Object.entries(phases)) {
    let list = samples.get(phase);
    if (!list) samples.set(phase, (list = []));
    list.push(ms);
  }
}

function keepLoop(thread: string, p50: number, p99: number, max: number): void {
  let seen = loops.get(thread);
  if (!seen) loops.set(thread, (seen = { p50: [], p99: [], max: 0 }));
  seen.p50.push(p50);
  seen.p99.push(p99);
  seen.max = Math.max(seen.max, max);
}

type Message =
  { kind: 'commit'; phases: Phases } | { kind: 'loop'; thread: string; p50: number; p99: number; max: number };

const channel = commitTimingOn ? new BroadcastChannel(CHANNEL) : undefined;
if (channel) {
  // The channel must not keep a thread alive that has nothing else to do.
  channel.unref();
  if (isMainThread) {
    channel.onmessage = (event) => {
      const message = (event as { data: Message }).data;
      if (message.kind === 'commit') keep(message.phases);
      else keepLoop(message.thread, message.p50, message.p99, message.max);
    };
  }
  watchEventLoop(isMainThread ? 'main thread' : 'checkout thread');
}

function publish(message: Message): void {
  if (isMainThread) {
    if (message.kind === 'commit') keep(message.phases);
    else keepLoop(message.thread, message.p50, message.p99, message.max);
  } else channel?.postMessage(message);
}

/**
 * How late this thread's event loop takes up what is ready (a statement's answer, a message), each
 * second: a commit waits about that long at each of its turns.
 */
function watchEventLoop(thread: string): void {
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  setInterval(() => {
    if (delay.count > 0)
      publish({
        kind: 'loop',
        thread,
        p50: delay.percentile(50) / 1e6,
        p99: delay.percentile(99) / 1e6,
        max: delay.max / 1e6,
      });
    delay.reset();
  }, 1_000).unref();
}

/** Milliseconds since the epoch, with a fraction, comparable between threads. */
export function timingNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Runs one commit, its phases recorded as it goes (when timing is on) and published at its end. */
export function timedCommit<T>(commit: () => Promise<T>, phases: Phases = {}): Promise<T> {
  // Off, or inside a commit already timed (the checkout thread times from the message's arrival).
  if (!current || current.getStore()) return commit();
  const started = performance.now();
  return current.run(phases, commit).finally(() => {
    phases['in transaction and pricing, total'] = performance.now() - started;
    publish({ kind: 'commit', phases });
  });
}

/** Adds `ms` to a phase of the commit in progress (when timing is on and a commit is). */
export function addCommitPhase(phase: string, ms: number): void {
  const phases = current?.getStore();
  if (phases) phases[phase] = (phases[phase] ?? 0) + ms;
}

/**
 * The pool-wait phase's name: waiting for a connection another commit holds, or for one the pool
 * opened (node-postgres closes connections idle for 10 s and opens them again on demand).
 */
export function poolWaitPhase(opened: boolean): string {
  return opened ? 'pool wait, opening a connection' : 'pool wait, for a free connection';
}

/** One step of the commit in progress, timed as `phase` when timing is on. */
export function timedPhase<T>(phase: string, step: () => Promise<T>): Promise<T> {
  if (!current?.getStore()) return step();
  const started = performance.now();
  return step().finally(() => addCommitPhase(phase, performance.now() - started));
}

/**
 * A phase measured outside any commit's context (the crossings between threads, seen by the main
 * thread): published as a record of its own.
 */
export function publishCommitPhases(phases: Phases): void {
  if (commitTimingOn) publish({ kind: 'commit', phases });
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The phases' p50, p99 and max in ms, and the event loops' delays; forgets them (main thread only). */
export function commitTimingSummary() {
  const phases = [...samples].map(([phase, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      phase,
      count: sorted.length,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      max: quantile(sorted, 1),
    };
  });
  const eventLoops = [...loops].map(([thread, seen]) => ({
    thread,
    // Per second: the median second's median and 99th percentile delay, and the worst delay.
    p50: quantile(
      [...seen.p50].sort((a, b) => a - b),
      0.5,
    ),
    p99: quantile(
      [...seen.p99].sort((a, b) => a - b),
      0.5,
    ),
    max: seen.max,
  }));
  samples.clear();
  loops.clear();
  return { phases, eventLoops };
}
