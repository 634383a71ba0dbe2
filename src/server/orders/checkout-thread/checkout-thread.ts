import { Worker } from 'node:worker_threads';
import type { BasketCommit, BasketQuery, CommitResponse, PricedBasket } from '../../../contract/basket.ts';
import type { OpenOptions } from '../../db/database.ts';
import { commitTimingOn, publishCommitPhases, timingNow } from '../commit-timing.ts';
import { rebuildError, type ThreadError } from './thread-errors.ts';

/**
 * Checkout commits in a worker thread of their own (docs/decisions/0020-checkout-first.md). On
 * PostgreSQL a commit is a transaction of several statements, and on a busy instance each answer
 * from the database waits its turn on the event loop behind every browsing request queued there:
 * during a sale that made a commit take ten turns of a crowded loop. In the thread, with its own
 * connections, a commit takes one turn of the main loop to arrive and one to answer.
 *
 * The thread runs the same orders and basket services as the main thread; only POST /api/basket
 * and POST /api/verify-basket (a checkout prices its basket before committing it) are sent to it. Should it stop, the commits in flight are answered 503 (nothing was committed that the
 * shopper was not told of: a transaction not committed is rolled back by PostgreSQL) and the
 * next commit starts a new one.
 */

/** Baskets priced in the thread at once; more are priced on the main thread. */
export const PRICINGS_IN_THREAD = 8;

export interface CheckoutThreadSetup {
  databaseUrl: string;
  pgSchema?: string;
  poolSize: number;
  timeouts?: OpenOptions['timeouts'];
  reservationMinutes: number;
  unpaidOrderLimits?: { perEmail: number; perClient: number; unitsPerEmail: number; unitsPerClient: number };
}

export type ToThread =
  | {
      type: 'commit';
      id: number;
      request: BasketCommit;
      customerId: number | undefined;
      clientAddress: string | undefined;
      /** When the main thread sent it (timingNow), with BENCH_COMMIT_TIMING=1 only. */
      sentAt?: number;
    }
  | { type: 'verify'; id: number; request: BasketQuery }
  | { type: 'forget-reference-data' }
  | { type: 'close' };

export type ToMain =
  | { type: 'answer'; id: number; answer: CommitResponse | PricedBasket; answeredAt?: number }
  | { type: 'answer'; id: number; error: ThreadError; answeredAt?: number }
  | { type: 'event'; event: 'created' | 'cancelled' | 'expired' };

interface Waiting {
  resolve: (answer: never) => void;
  reject: (error: Error) => void;
  /** When a timed commit was sent (timingNow), with BENCH_COMMIT_TIMING=1 only. */
  sentAt?: number;
}

/** What the error handler answers 503 "try again shortly" for (isDatabaseUnavailable). */
function threadStopped(why: string): Error {
  return Object.assign(new Error(`Connection terminated: the checkout thread stopped (${why})`), {
    code: '08006',
  });
}

export function startCheckoutThread(
  setup: CheckoutThreadSetup,
  options: { onOrderEvent?: (event: 'created' | 'cancelled' | 'expired') => void; log?: (error: unknown) => void } = {},
) {
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let worker: Worker | undefined;
  let closing: Promise<void> | undefined;
  let pricing = 0;

  function failAll(why: string): void {
    for (const [id, wait] of waiting) {
      waiting.delete(id);
      wait.reject(threadStopped(why));
    }
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./checkout-thread.worker.ts', import.meta.url), { workerData: setup });
    started.on('message', (message: ToMain) => {
      if (message.type === 'event') {
        options.onOrderEvent?.(message.event);
        return;
      }
      const wait = waiting.get(message.id);
      if (!wait) return;
      waiting.delete(message.id);
      if (wait.sentAt !== undefined && message.answeredAt !== undefined) {
        const now = timingNow();
        publishCommitPhases({
          'answer back to the main thread': now - message.answeredAt,
          'checkout thread round trip, seen by the main thread': now - wait.sentAt,
        });
      }
      if ('error' in message) wait.reject(rebuildError(message.error));
      else wait.resolve(message.answer as never);
    });
    started.on('error', (error) => {
      options.log?.(error);
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      failAll(`exit code ${code}`);
    });
    worker = started;
    return started;
  }

  function ask<T>(message: (id: number) => ToThread): Promise<T> {
    if (closing) return Promise.reject(threadStopped('the shop is stopping'));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const sent = message(id);
      const sentAt = commitTimingOn && sent.type === 'commit' ? timingNow() : undefined;
      waiting.set(id, { resolve: resolve as (answer: never) => void, reject, ...(sentAt ? { sentAt } : {}) });
      thread().postMessage(sentAt ? { ...sent, sentAt } : sent);
    });
  }

  return {
    /** POST /api/basket, committed in the thread: the same answer, or the same error, as in process. */
    commit(request: BasketCommit, customerId?: number, clientAddress?: string): Promise<CommitResponse> {
      return ask<CommitResponse>((id) => ({ type: 'commit', id, request, customerId, clientAddress }));
    },

    /**
     * POST /api/verify-basket, priced in the thread as the basket service prices it in process;
     * beyond PRICINGS_IN_THREAD at once, by `elsewhere` (the main thread). Pricing needs no
     * sign-in, so a flood of it must not take the commits' turns: the thread prices a few at a
     * time, on connections of their own, and the rest are priced as before the thread existed.
     */
    verify(request: BasketQuery, elsewhere: (request: BasketQuery) => Promise<PricedBasket>): Promise<PricedBasket> {
      if (pricing >= PRICINGS_IN_THREAD) return elsewhere(request);
      pricing++;
      return ask<PricedBasket>((id) => ({ type: 'verify', id, request })).finally(() => pricing--);
    },

    /** Staff changed countries or delivery methods: the thread's pricing reads them afresh. */
    forgetReferenceData(): void {
      worker?.postMessage({ type: 'forget-reference-data' } satisfies ToThread);
    },

    /** Lets the commits in flight finish, then closes the thread's connections and stops it. */
    close(): Promise<void> {
      closing ??= (async () => {
        const running = worker;
        if (!running) return;
        // Commits end within the statement timeouts; a thread that stopped answering is ended.
        const deadline = Date.now() + 20_000;
        while (waiting.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
        running.postMessage({ type: 'close' } satisfies ToThread);
        const ended = setTimeout(() => void running.terminate(), 5_000);
        await exited;
        clearTimeout(ended);
      })();
      return closing;
    },
  };
}

export type CheckoutThread = ReturnType<typeof startCheckoutThread>;
