import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { LOCAL_PAYPAL_BUSINESS_EMAIL } from '../config.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { mailQueueDrained } from '../../../test/helpers/outbox.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { metricsAddressOf } from './metrics-listener.ts';
import { outcomeKind } from './metrics.ts';

/** Debian's prometheus package puts it here; .ci/run installs it when missing. */
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';

/** Runs promtool; a missing one fails the test, never skips it (CI installs it: .ci/run). */
function promtool(args: string[], input?: string) {
  const run = spawnSync(PROMTOOL, args, { encoding: 'utf8', ...(input === undefined ? {} : { input }) });
  if (run.error)
    throw new Error(
      `${PROMTOOL} could not run (${run.error.message}): install Debian's prometheus package (apt-get install prometheus), as .ci/run does, or set PROMTOOL`,
    );
  return run;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samplesOf(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] as string, m[2] as string]),
    );
    return [{ name: match[1] as string, labels, value: Number(match[3]) }];
  });
}

/** The metric families a scrape declares (its `# TYPE` lines), whether or not they have samples yet. */
function familiesOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] as string));
}

/** The value of the one sample with this name and these labels (and maybe others); undefined when none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('metrics on their own listener', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  const validations: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { METRICS_PORT: '0', SEARCH_CACHE_SECONDS: '30', CATALOG_CACHE_SECONDS: '30' },
      // PayPal's IPN validation answers VERIFIED, as PayPal does for a real payment.
      paymentFetch: (async (_url: string | URL | Request, init?: RequestInit) => {
        validations.push(String(init?.body));
        return new Response('VERIFIED');
      }) as typeof fetch,
    });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  /** PayPal's IPN for a completed payment of the order (validated by the stand-in above). */
  const notifyPaid = (orderNumber: number, total: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: new URLSearchParams({
        mc_gross: total,
        invoice: String(orderNumber),
        payment_status: 'Completed',
        txn_id: `TXN${orderNumber}`,
        mc_currency: 'GBP',
        receiver_email: LOCAL_PAYPAL_BUSINESS_EMAIL,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  /** A shopper's order of one unit of a new £25 product (£34.95 with express delivery). */
  async function placeOrder(): Promise<{ orderNumber: number }> {
    const product = await fx.product(2500, 5);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: product.stockId, requestedQty: 1 }]),
    });
    const order = commitResponseSchema.parse(committed.json());
    if (!order.ok) throw new Error('expected an order');
    return order;
  }

  async function scrape(): Promise<string> {
    const address = metricsAddressOf(t.server);
    if (!address) throw new Error('the metrics listener is not listening');
    const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  }

  it('listens on the loopback address only, and the shop port has no /metrics', async () => {
    expect(metricsAddressOf(t.server)?.address).toBe('127.0.0.1');
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(404);
    const address = metricsAddressOf(t.server);
    expect((await fetch(`http://127.0.0.1:${address?.port}/elsewhere`)).status).toBe(404);
  });

  it('counts a checkout, its payment, the caches and the requests by route pattern, as promtool accepts', async () => {
    const product = await fx.product(2500, 5);
    const unmatchedBefore =
      valueOf(samplesOf(await scrape()), 'shop_http_requests_total', {
        method: 'GET',
        route: 'unmatched',
        status_class: '4xx',
      }) ?? 0;
    // A path no route matches, holding what a customer might type: it must not become a label.
    const secretPath = `/no-such-page/asha.patel@example.com-${Date.now()}`;
    expect((await t.app.inject({ method: 'GET', url: secretPath })).statusCode).toBe(404);
    // The same product twice and the same search twice: the second of each is a cache hit.
    for (let i = 0; i < 2; i++) {
      expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(200);
      const search = await t.app.inject({ method: 'POST', url: '/api/search', payload: { title: 'nothing-like-it' } });
      expect(search.statusCode).toBe(200);
    }
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: product.stockId, requestedQty: 2 }]),
    });
    const order = commitResponseSchema.parse(committed.json());
    if (!order.ok) throw new Error('expected an order');

    // A message failed once and waiting ten minutes, and one given up on: the queue's figures.
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const mail = { recipient: 'x@example.com', subject: 's', paragraphs: '[]', claimed_until: null, claim_token: null };
    await t.db.kysely
      .insertInto('mail_queue')
      .values([
        {
          ...mail,
          status: 'pending',
          attempts: 1,
          next_attempt_at: minutesAgo(-60),
          created_at: minutesAgo(10),
          last_error: 'refused',
          sent_at: null,
        },
        {
          ...mail,
          status: 'failed',
          attempts: 12,
          next_attempt_at: minutesAgo(60),
          created_at: minutesAgo(300),
          last_error: 'refused',
          sent_at: null,
        },
      ])
      .execute();

    const beforePayment = samplesOf(await scrape());
    expect(valueOf(beforePayment, 'shop_orders_total', { event: 'created' })).toBe(1);
    expect(valueOf(beforePayment, 'shop_orders_total', { event: 'paid' })).toBe(0);
    expect(valueOf(beforePayment, 'shop_unpaid_orders_holding_stock')).toBe(1);
    expect(valueOf(beforePayment, 'shop_unpaid_order_units_held')).toBe(2);

    // PayPal notifies the payment, then sends the same notification again.
    expect((await notifyPaid(order.orderNumber, '59.95')).statusCode).toBe(200);
    expect((await notifyPaid(order.orderNumber, '59.95')).statusCode).toBe(200);
    expect(validations).toHaveLength(2);
    await mailQueueDrained(t.db, t.server);

    const text = await scrape();
    const samples = samplesOf(text);
    expect(valueOf(samples, 'shop_orders_total', { event: 'created' })).toBe(1);
    expect(valueOf(samples, 'shop_orders_total', { event: 'paid' })).toBe(1);
    expect(valueOf(samples, 'shop_payment_notifications_total', { provider: 'paypal', outcome: 'paid' })).toBe(1);
    expect(valueOf(samples, 'shop_payment_notifications_total', { provider: 'paypal', outcome: 'duplicate' })).toBe(1);
    expect(valueOf(samples, 'shop_unpaid_orders_holding_stock')).toBe(0);
    expect(valueOf(samples, 'shop_unpaid_order_units_held')).toBe(0);

    const requests = (route: string, method: string, statusClass: string) =>
      valueOf(samples, 'shop_http_requests_total', { method, route, status_class: statusClass });
    expect(requests('/api/basket', 'POST', '2xx')).toBe(1);
    expect(requests('/api/products/:key', 'GET', '2xx')).toBe(2);
    expect(requests('/api/search', 'POST', '2xx')).toBe(2);
    expect(requests('/api/payments/paypal/ipn', 'POST', '2xx')).toBe(2);
    // Every unknown path shares one series; the path itself is nowhere in the answer.
    expect(requests('unmatched', 'GET', '4xx')).toBe(unmatchedBefore + 1);
    expect(text).not.toContain('asha.patel');
    expect(samples.filter((s) => s.labels.route === `/api/products/${product.id}`)).toEqual([]);
    const basketDurations = {
      method: 'POST',
      route: '/api/basket',
      status_class: '2xx',
    };
    expect(valueOf(samples, 'shop_http_request_duration_seconds_count', basketDurations)).toBe(1);
    expect(valueOf(samples, 'shop_http_request_duration_seconds_bucket', { ...basketDurations, le: '+Inf' })).toBe(1);
    expect(valueOf(samples, 'shop_http_request_duration_seconds_sum', basketDurations)).toBeGreaterThan(0);

    // Search: one miss then one hit. Catalogue: the product's key and body, read then reused.
    expect(valueOf(samples, 'shop_cache_lookups_total', { cache: 'search', result: 'miss' })).toBe(1);
    expect(valueOf(samples, 'shop_cache_lookups_total', { cache: 'search', result: 'hit' })).toBe(1);
    expect(valueOf(samples, 'shop_cache_lookups_total', { cache: 'catalogue', result: 'hit' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'shop_cache_lookups_total', { cache: 'catalogue', result: 'miss' })).toBeGreaterThan(0);

    expect(valueOf(samples, 'shop_mail_queue_depth')).toBe(1);
    expect(valueOf(samples, 'shop_mail_queue_retrying')).toBe(1);
    expect(valueOf(samples, 'shop_mail_failed')).toBe(1);
    const oldest = valueOf(samples, 'shop_mail_queue_oldest_age_seconds') ?? 0;
    expect(oldest).toBeGreaterThanOrEqual(600);
    expect(oldest).toBeLessThan(700);

    for (const pool of ['shop', 'checkout']) {
      expect(valueOf(samples, 'shop_db_pool_connections', { pool })).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'shop_db_pool_waiting', { pool })).toBe(0);
    }
    // The event loop's delay since the last scrape (it may be 0 on an idle loop; it must be there).
    expect(Number.isFinite(valueOf(samples, 'nodejs_eventloop_lag_p99_seconds'))).toBe(true);

    const check = promtool(['check', 'metrics'], text);
    expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
    expect(check.status).toBe(0);
  });

  it("has alert rules promtool accepts, on the metrics' own names (docs/prometheus-alerts.yml)", async () => {
    const rulesFile = fileURLToPath(new URL('../../../docs/prometheus-alerts.yml', import.meta.url));
    const check = promtool(['check', 'rules', rulesFile]);
    expect(check.stdout, check.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
    // Every shop_ metric a rule names is one the shop exports.
    const exported = familiesOf(await scrape());
    const named = new Set(readFileSync(rulesFile, 'utf8').match(/\bshop_\w+/g));
    expect(named.size).toBeGreaterThan(5);
    for (const name of named) expect(exported, name).toContain(name.replace(/_(bucket|sum|count)$/, ''));
  });

  it("has a Grafana dashboard whose queries promtool parses, on the metrics' own names (docs/grafana-dashboard.json)", async () => {
    const dashboard = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../docs/grafana-dashboard.json', import.meta.url)), 'utf8'),
    ) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    const queries = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    expect(queries.length).toBeGreaterThan(10);
    // promtool has no query checker of its own: each query becomes a recording rule it parses.
    const dir = mkdtempSync(join(tmpdir(), 'shop-dashboard-'));
    try {
      const rules = queries.map(
        (expr, i) => `      - record: dashboard_query_${i}\n        expr: ${JSON.stringify(expr)}`,
      );
      writeFileSync(join(dir, 'queries.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
      const check = promtool(['check', 'rules', join(dir, 'queries.yml')]);
      expect(check.stdout, check.stderr).toContain(`SUCCESS: ${queries.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const exported = familiesOf(await scrape());
    for (const name of new Set(queries.join(' ').match(/\b(shop|nodejs|process)_\w+/g))) {
      expect(exported, name).toContain(name.replace(/_(bucket|sum|count)$/, ''));
    }
  });

  it('counts the orders staff cancel and refund in the back office', async () => {
    const { cookie } = await staffMember(t, 'staff');
    const admin = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/admin${url}`, headers: { cookie }, payload });
    const orders = async () => samplesOf(await scrape());
    const before = await orders();
    const unpaid = await placeOrder();
    expect((await admin(`/orders/${unpaid.orderNumber}/cancel`, {})).statusCode).toBe(200);
    const paid = await placeOrder();
    expect((await notifyPaid(paid.orderNumber, '34.95')).statusCode).toBe(200);
    expect((await admin(`/orders/${paid.orderNumber}/refund`, { amount: 500, reason: 'Goodwill' })).statusCode).toBe(
      200,
    );
    // A refusal changes nothing and is not counted: more than was paid.
    expect(
      (await admin(`/orders/${paid.orderNumber}/refund`, { amount: 100_000, reason: 'Too much' })).statusCode,
    ).toBe(409);
    const after = await orders();
    const moved = (event: string) =>
      (valueOf(after, 'shop_orders_total', { event }) ?? 0) - (valueOf(before, 'shop_orders_total', { event }) ?? 0);
    expect({
      created: moved('created'),
      paid: moved('paid'),
      cancelled: moved('cancelled'),
      refunded: moved('refunded'),
      expired: moved('expired'),
    }).toEqual({ created: 2, paid: 1, cancelled: 1, refunded: 1, expired: 0 });
  });

  it('keeps only the kind of a provider outcome, never its quoted text', () => {
    expect(outcomeKind('paid')).toBe('paid');
    expect(outcomeKind('paid late')).toBe('paid_late');
    expect(outcomeKind('rejected: INVALID from PayPal')).toBe('rejected');
    expect(outcomeKind('ignored Pending: order is paid')).toBe('ignored');
    expect(outcomeKind('recorded Refunded')).toBe('recorded');
    expect(outcomeKind('whatever a provider sent')).toBe('other');
  });
});

describe('metrics off', () => {
  it('opens no listener when METRICS_PORT is unset', async () => {
    const t = await createTestApp();
    try {
      expect(metricsAddressOf(t.server)).toBeUndefined();
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
