import { parentPort, workerData } from 'node:worker_threads';
import { jsonHeaders, rotate, saleOrder } from './harness.ts';

/**
 * bench:sale's shoppers checking out, in a worker thread of their own: in the thread that runs
 * autocannon their awaits would queue behind its work and the commit's time would include it.
 * Each shopper, until the time is up, prices a two-line basket, prices it with their details and
 * commits it; every order has its own e-mail address and client address (X-Forwarded-For, read
 * by the shop with TRUST_PROXY). Posts the commits' and the pricings' times in ms and the number of
 * failed calls.
 */
const { base, stockIds, seconds, shoppers, firstShopper } = workerData as {
  base: string;
  stockIds: number[];
  seconds: number;
  shoppers: number;
  firstShopper: number;
};
const nextStock = rotate(stockIds);
let nextShopper = firstShopper;
const commits: number[] = [];
const verifies: number[] = [];
let problems = 0;

function post(path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...jsonHeaders, ...headers },
    body: JSON.stringify(body),
  });
}

async function shopper(until: number): Promise<void> {
  while (Date.now() < until) {
    const n = nextShopper++;
    const { basket, withDetails } = saleOrder(n, nextStock);
    const from = { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
    try {
      for (const body of [basket, withDetails]) {
        const asked = performance.now();
        const priced = await post('/api/verify-basket', body, from);
        await priced.arrayBuffer();
        verifies.push(performance.now() - asked);
        if (!priced.ok) problems++;
      }
      const started = performance.now();
      const committed = await post('/api/basket', withDetails, from);
      await committed.arrayBuffer();
      commits.push(performance.now() - started);
      // 409 is a basket the shop corrected (a size sold out meanwhile): an answer, not an error.
      if (!committed.ok && committed.status !== 409) problems++;
    } catch {
      problems++;
    }
  }
}

const until = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: shoppers }, () => shopper(until)));
parentPort?.postMessage({ commits, verifies, problems, nextShopper });
