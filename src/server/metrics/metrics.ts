import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import { PAYMENT_PROVIDERS } from '../config.ts';
import { readMailQueueState, readUnpaidHoldings } from './metrics.repository.ts';

/**
 * What the shop tells Prometheus (docs/decisions/0016-metrics-and-traces.md, docs/operations.md).
 * Every label takes one of a few values fixed here or in the route table: a route's pattern, never
 * its URL; a status class; a provider's id and an outcome's kind, never its text. So no customer
 * data reaches a label and the number of series stays bounded.
 *
 * Requests, order moves, notifications and cache look-ups are counters this instance increments
 * (a few nanoseconds, no database work); the mail queue and unpaid orders are read from the
 * database when Prometheus scrapes, as the whole shop's (every instance reports the same figure).
 */

export type OrderEvent = 'created' | 'paid' | 'cancelled' | 'expired' | 'refunded';
export type CacheName = 'search' | 'catalogue';

/** What the features call; each is optional there, so with metrics off nothing is counted at all. */
export interface MetricsHooks {
  /** After a request's answer is sent. `route` is the matched route's pattern, undefined when none matched. */
  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void;
  /** An order moved (after its transaction committed). */
  orderEvent(event: OrderEvent): void;
  /** A provider's notification, return or capture was applied; `outcome` is what payment-events recorded. */
  paymentNotification(provider: string, outcome: string): void;
  /** Look-ups answered from a cache (`hits`) or read from the database (`misses`). */
  cacheLookups(cache: CacheName, hits: number, misses: number): void;
}

export interface ShopMetrics extends MetricsHooks {
  registry: Registry;
}

/** Route label for requests no route matched (404s for unknown paths): one series for all of them. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Request durations from 5 ms to 10 s: the shop's answers are tens of milliseconds; the alert is at 250 ms. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const KNOWN_PROVIDERS = new Set<string>(PAYMENT_PROVIDERS);

/**
 * A notification's outcome as a bounded kind. The recorded outcome may quote the provider
 * ("ignored Pending: order is paid", "rejected: INVALID"), so only its leading word is kept.
 */
export function outcomeKind(outcome: string): string {
  if (outcome === 'paid' || outcome === 'paid late' || outcome === 'already paid' || outcome === 'failed')
    return outcome.replace(' ', '_');
  const first = /^(duplicate|error|rejected|ignored|recorded)\b/.exec(outcome);
  return first ? (first[1] as string) : 'other';
}

export function createShopMetrics(
  db: Pick<Db, 'kysely' | 'poolUsage' | 'checkoutPoolUsage'>,
  log: (error: unknown) => void,
): ShopMetrics {
  const registry = new Registry();
  const registers = [registry];
  // Process CPU and memory, GC, and the event loop's delay (nodejs_eventloop_lag_*, from perf_hooks'
  // monitorEventLoopDelay, reset at each scrape so its percentiles cover the last interval).
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which promtool (and Prometheus' naming rules) refuse; the same
  // figures stay, by type, in nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);

  const requests = new Counter({
    name: 'shop_http_requests_total',
    help: 'Requests answered, by method, route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers,
  });
  const durations = new Histogram({
    name: 'shop_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  // One child per series, found by a string key: the hot path does no label hashing.
  const series = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<string> }>();

  const orders = new Counter({
    name: 'shop_orders_total',
    help: 'Order moves made by this instance: created, paid, cancelled (by staff or replaced by a new commit), expired, refunded (by staff).',
    labelNames: ['event'] as const,
    registers,
  });
  const notifications = new Counter({
    name: 'shop_payment_notifications_total',
    help: "Payment providers' notifications, returns and captures applied, by provider and outcome kind.",
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const cacheLookups = new Counter({
    name: 'shop_cache_lookups_total',
    help: 'Catalogue and search cache look-ups, answered from the cache (hit) or read from the database (miss).',
    labelNames: ['cache', 'result'] as const,
    registers,
  });
  // Zero from the start, so a ratio or rate has a series before the first event.
  for (const event of ['created', 'paid', 'cancelled', 'expired', 'refunded'] as const) orders.inc({ event }, 0);
  for (const cache of ['search', 'catalogue'] as const)
    for (const result of ['hit', 'miss'] as const) cacheLookups.inc({ cache, result }, 0);

  // Labelled by pool: `shop` for everything else, `checkout` for the money path's own (on SQLite
  // and without one, the two read the same connections).
  const pool = (name: string, help: string, read: (usage: ReturnType<Db['poolUsage']>) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers,
      collect() {
        this.set({ pool: 'shop' }, read(db.poolUsage()));
        this.set({ pool: 'checkout' }, read(db.checkoutPoolUsage()));
      },
    });
  pool('shop_db_pool_connections', 'Database connections open (SQLite: its one connection).', (u) => u.size);
  pool(
    'shop_db_pool_in_use',
    'Database connections lent to a statement or transaction (SQLite: 1 while one holds it).',
    (u) => u.inUse,
  );
  pool(
    'shop_db_pool_waiting',
    'Statements and transactions waiting for a database connection (SQLite: for its one connection).',
    (u) => u.waiting,
  );

  // The database's figures: one read serves every gauge below. A scrape collects them all at once,
  // so they share the read in flight; the next scrape reads again.
  let reading: Promise<void> | undefined;
  const readOnce = () => (reading ??= readDatabase().finally(() => (reading = undefined)));
  const databaseGauge = (name: string, help: string) => new Gauge({ name, help, registers, collect: readOnce });
  const mailUnsent = databaseGauge('shop_mail_queue_depth', 'E-mails queued and not yet sent.');
  const mailRetrying = databaseGauge(
    'shop_mail_queue_retrying',
    'Queued e-mails that failed at least once and wait to be tried again.',
  );
  const mailFailed = databaseGauge(
    'shop_mail_failed',
    'E-mails given up on after every attempt (kept in the queue with their last error).',
  );
  const mailOldest = databaseGauge(
    'shop_mail_queue_oldest_age_seconds',
    'Age of the oldest e-mail not yet sent; 0 when none waits.',
  );
  const unpaidOrders = databaseGauge(
    'shop_unpaid_orders_holding_stock',
    'Unpaid orders holding stock (reservation running, or run out and not yet swept).',
  );
  const unpaidUnits = databaseGauge('shop_unpaid_order_units_held', 'Units of stock held by unpaid orders.');
  const fromDatabase = [mailUnsent, mailRetrying, mailFailed, mailOldest, unpaidOrders, unpaidUnits];
  async function readDatabase(): Promise<void> {
    try {
      const [mail, unpaid] = await Promise.all([readMailQueueState(db.kysely), readUnpaidHoldings(db.kysely)]);
      mailUnsent.set(mail.unsent);
      mailRetrying.set(mail.retrying);
      mailFailed.set(mail.failed);
      mailOldest.set(mail.oldestUnsentAt ? Math.max(0, (Date.now() - Date.parse(mail.oldestUnsentAt)) / 1000) : 0);
      unpaidOrders.set(unpaid.orders);
      unpaidUnits.set(unpaid.units);
    } catch (error) {
      // A stale figure would mislead: the series go missing until a read succeeds (alert on absent()).
      for (const gauge of fromDatabase) gauge.reset();
      log(error);
    }
  }

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      const key = `${method} ${statusCode} ${route ?? ''}`;
      let child = series.get(key);
      if (!child) {
        const labels = {
          method: KNOWN_METHODS.has(method) ? method : 'other',
          route: route ?? UNMATCHED_ROUTE,
          status_class: `${String(statusCode).charAt(0)}xx`,
        };
        child = { count: requests.labels(labels), duration: durations.labels(labels) };
        series.set(key, child);
      }
      child.count.inc();
      child.duration.observe(seconds);
    },
    orderEvent(event) {
      orders.inc({ event });
    },
    paymentNotification(provider, outcome) {
      const kind = outcomeKind(outcome);
      notifications.inc({ provider: KNOWN_PROVIDERS.has(provider) ? provider : 'other', outcome: kind });
      if (kind === 'paid' || kind === 'paid_late') orders.inc({ event: 'paid' });
    },
    cacheLookups(cache, hits, misses) {
      if (hits > 0) cacheLookups.inc({ cache, result: 'hit' }, hits);
      if (misses > 0) cacheLookups.inc({ cache, result: 'miss' }, misses);
    },
  };
}
