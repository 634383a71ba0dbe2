import { parentPort, workerData } from 'node:worker_threads';
import { createBasketService, forgetReferenceData } from '../../basket/basket.service.ts';
import { openDatabase } from '../../db/database.ts';
import { addCommitPhase, commitTimingOn, poolWaitPhase, timedCommit, timingNow } from '../commit-timing.ts';
import { createOrdersService } from '../orders.service.ts';
import { describeError } from './thread-errors.ts';
import type { CheckoutThreadSetup, ToMain, ToThread } from './checkout-thread.ts';

/**
 * The checkout thread (checkout-thread.ts): prices baskets and commits orders on connections of its own, on an event
 * loop that nothing else uses, so each of a commit's statements is taken up as soon as its answer
 * arrives rather than after every browsing request queued on the main thread.
 */
const setup = workerData as CheckoutThreadSetup;
const port = parentPort;
if (!port) throw new Error('checkout-thread.worker.ts runs as a worker thread');

const connections = (poolSize: number, onConnectionWait?: (ms: number, opened: boolean) => void) =>
  openDatabase(setup.databaseUrl, {
    ...(setup.pgSchema ? { pgSchema: setup.pgSchema } : {}),
    poolSize,
    ...(setup.timeouts ? { timeouts: setup.timeouts } : {}),
    ...(onConnectionWait ? { onConnectionWait } : {}),
  });
// With BENCH_COMMIT_TIMING=1, a commit's wait for one of these connections is one of its phases.
const db = connections(
  setup.poolSize,
  commitTimingOn ? (ms, opened) => addCommitPhase(poolWaitPhase(opened), ms) : undefined,
);
const orders = createOrdersService(db.kysely, {
  reservationMinutes: setup.reservationMinutes,
  ...(setup.unpaidOrderLimits ? { unpaidOrderLimits: setup.unpaidOrderLimits } : {}),
  onOrderEvent: (event) => port.postMessage({ type: 'event', event } satisfies ToMain),
});

// Pricing on connections of its own: however many baskets are being priced, commits keep theirs.
const pricingDb = connections(3);
const basket = createBasketService(pricingDb.kysely);

port.on('message', (message: ToThread) => {
  if (message.type === 'close') {
    void Promise.all([db.destroy(), pricingDb.destroy()]).finally(() => port.close());
    return;
  }
  if (message.type === 'forget-reference-data') {
    forgetReferenceData(pricingDb.kysely);
    return;
  }
  const work =
    message.type === 'commit'
      ? timedCommit(
          () => orders.commit(message.request, message.customerId, message.clientAddress),
          // The wait for this thread's turn (sent with BENCH_COMMIT_TIMING=1 only).
          message.sentAt === undefined ? {} : { 'message to the checkout thread': timingNow() - message.sentAt },
        )
      : basket.verify(message.request);
  // A timed commit's answer says when it left, for the main thread to time its crossing back.
  const answeredAt = () =>
    message.type === 'commit' && message.sentAt !== undefined ? { answeredAt: timingNow() } : {};
  work.then(
    (answer) => port.postMessage({ type: 'answer', id: message.id, answer, ...answeredAt() } satisfies ToMain),
    (error: unknown) =>
      port.postMessage({
        type: 'answer',
        id: message.id,
        error: describeError(error),
        ...answeredAt(),
      } satisfies ToMain),
  );
});
