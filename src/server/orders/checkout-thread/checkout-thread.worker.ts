import { parentPort, workerData } from 'node:worker_threads';
import { createBasketService, forgetReferenceData } from '../../basket/basket.service.ts';
import { openDatabase } from '../../db/database.ts';
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

const connections = (poolSize: number) =>
  openDatabase(setup.databaseUrl, {
    ...(setup.pgSchema ? { pgSchema: setup.pgSchema } : {}),
    poolSize,
    ...(setup.timeouts ? { timeouts: setup.timeouts } : {}),
  });
const db = connections(setup.poolSize);
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
      ? orders.commit(message.request, message.customerId, message.clientAddress)
      : basket.verify(message.request);
  work.then(
    (answer) => port.postMessage({ type: 'answer', id: message.id, answer } satisfies ToMain),
    (error: unknown) =>
      port.postMessage({ type: 'answer', id: message.id, error: describeError(error) } satisfies ToMain),
  );
});
