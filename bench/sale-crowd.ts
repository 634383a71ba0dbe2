import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { clientAddress, jsonHeaders, openLoop, rotate, saleOrder } from './harness.ts';

/**
 * One of bench:sale's crowds at a fixed rate (the open loop, bench/sale.ts), in a worker thread of
 * its own, so that one crowd's answers never wait behind another's on the load generator's event
 * loop: product views (GET), searches (POST /api/search) or orders (two pricings, POST
 * /api/verify-basket, then the commit, POST /api/basket, each step sent when the one before was
 * answered, as a shopper's browser does). Every view, search and order comes from a client address
 * of its own (X-Forwarded-For, read by the shop with TRUST_PROXY), as a crowd does; an order's three
 * requests share theirs, and each order has its own e-mail address.
 *
 * Latencies are in ms from the moment the request was due (openLoop), for views, searches and an
 * order's first pricing; the second pricing and the commit from when they were sent, since they are
 * due only once the step before is answered. Posts the latencies of answered requests, the errors
 * (failed, timed out, or answered with an error status) and the sends dropped over the in-flight bound.
 */

export type CrowdSetup = {
  base: string;
  seconds: number;
  perSecond: number;
  maxInFlight: number;
  /** The first octet of this crowd's client addresses, and its first shopper's number. */
  addressOctet: number;
  firstShopper: number;
} & (
  | { crowd: 'views'; paths: string[] }
  | { crowd: 'searches'; bodies: string[] }
  | {
      crowd: 'orders';
      stockIds: number[];
      /** --hot: each order's first line is one of these. */ hotStockIds: number[];
    }
);

export interface CrowdResult {
  /** Per part (views, searches; for orders: pricing, commit and the whole order): latencies and errors. */
  parts: Record<string, { latencies: number[]; errors: number; slowAt: number[] }>;
  scheduled: number;
  dropped: number;
  maxLateMs: number;
  nextShopper: number;
}

const setup = workerData as CrowdSetup;
const target = new URL(setup.base);
// Connections kept open between requests, as a browser keeps them; at most one per request in flight.
const agent = new Agent({ keepAlive: true, maxSockets: setup.maxInFlight });
/** A request still unanswered after this long is an error: the shopper has given up. */
const TIMEOUT_MS = 10_000;

/** One HTTP exchange; resolves with the status once the whole answer has arrived. */
function exchange(method: 'GET' | 'POST', path: string, body: string | undefined, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method,
        path,
        timeout: TIMEOUT_MS,
        // A view carries the CSRF cookie as a browser does once the shop has set it: without it,
        // every answer would be given a new token, which a shopper's second page never costs.
        headers: { ...(body === undefined ? { cookie: jsonHeaders.cookie } : jsonHeaders), 'x-forwarded-for': from },
      },
      (response) => {
        response.on('error', reject);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.resume();
      },
    );
    sent.on('timeout', () => sent.destroy(new Error('timed out')));
    sent.on('error', reject);
    sent.end(body);
  });
}

const parts: CrowdResult['parts'] = {};
const part = (name: string) => (parts[name] ??= { latencies: [], errors: 0, slowAt: [] });
/** An answer slower than this is remembered with the second of the run it was due in, to tell a stall from a tail. */
const SLOW_MS = 200;
let runStarted = performance.now();
function record(name: string, since: number): void {
  const latency = performance.now() - since;
  part(name).latencies.push(latency);
  if (latency > SLOW_MS) part(name).slowAt.push(Math.floor((since - runStarted) / 1000));
}
let nextShopper = setup.firstShopper;

/** Sends one request and records it under `name`: its latency from `since` if answered well, else an error. */
async function timed(
  name: string,
  since: number,
  method: 'GET' | 'POST',
  path: string,
  body: string | undefined,
  from: string,
  // 409 to a commit is a basket the shop corrected (a size sold out meanwhile): an answer, not an error.
  fine: (status: number) => boolean = (status) => status >= 200 && status < 300,
): Promise<boolean> {
  try {
    const status = await exchange(method, path, body, from);
    if (!fine(status)) {
      part(name).errors++;
      return false;
    }
    record(name, since);
    return true;
  } catch {
    part(name).errors++;
    return false;
  }
}

function sendOne(due: number): Promise<void> {
  const n = nextShopper++;
  const from = clientAddress(setup.addressOctet, n);
  if (setup.crowd === 'views') return timed('views', due, 'GET', nextPath(), undefined, from).then(() => undefined);
  if (setup.crowd === 'searches')
    return timed('searches', due, 'POST', '/api/search', nextBody(), from).then(() => undefined);
  return order(n, due, from);
}

/** An order: priced, priced with the shopper's details, committed; each step only if the one before was fine. */
async function order(n: number, due: number, from: string): Promise<void> {
  const made = saleOrder(n, nextStock, nextHot);
  const basket = made.basket;
  const withDetails = JSON.stringify(made.withDetails);
  if (!(await timed('pricing', due, 'POST', '/api/verify-basket', JSON.stringify(basket), from))) return;
  if (!(await timed('pricing', performance.now(), 'POST', '/api/verify-basket', withDetails, from))) return;
  const committed = await timed(
    'commit',
    performance.now(),
    'POST',
    '/api/basket',
    withDetails,
    from,
    (status) => (status >= 200 && status < 300) || status === 409,
  );
  if (committed) record('order, from due to committed', due);
}

const nextPath = setup.crowd === 'views' ? rotate(setup.paths) : () => '';
const nextBody = setup.crowd === 'searches' ? rotate(setup.bodies) : () => '';
const nextStock = setup.crowd === 'orders' ? rotate(setup.stockIds) : () => 0;
const nextHot = setup.crowd === 'orders' && setup.hotStockIds.length > 0 ? rotate(setup.hotStockIds) : nextStock;

runStarted = performance.now();
const loop = await openLoop({
  perSecond: setup.perSecond,
  seconds: setup.seconds,
  maxInFlight: setup.maxInFlight,
  send: (_, due) => sendOne(due),
});
agent.destroy();
parentPort?.postMessage({ parts, ...loop, nextShopper } satisfies CrowdResult);
