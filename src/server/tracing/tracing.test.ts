import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { LOCAL_PAYPAL_BUSINESS_EMAIL } from '../config.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { mailQueueDrained } from '../../../test/helpers/outbox.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import { REQUEST_ID_ATTRIBUTE, startTracing, type Tracing } from './tracing.ts';
import { testEnvironment } from '../../../test/helpers/test-environment.ts';

/** A span as the OTLP/HTTP JSON export carries it. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string | number | boolean>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpExport {
  resourceSpans: Array<{
    scopeSpans: Array<{
      spans: Array<Omit<ExportedSpan, 'attributes'> & { attributes?: Array<{ key: string; value: OtlpValue }> }>;
    }>;
  }>;
}

/** A collector of our own: takes OTLP/HTTP JSON exports at /v1/traces and keeps their spans. */
function otlpReceiver(): { server: Server; spans: ExportedSpan[]; paths: string[] } {
  const spans: ExportedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans)
          for (const span of scope.spans)
            spans.push({
              ...span,
              attributes: Object.fromEntries(
                (span.attributes ?? []).map(({ key, value }) => [
                  key,
                  value.stringValue ?? value.boolValue ?? Number(value.intValue ?? value.doubleValue),
                ]),
              ),
            });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans, paths };
}

describe('traces sent to an OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
  const receiver = otlpReceiver();
  let tracing: Tracing;
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.server.address() as AddressInfo;
    tracing = startTracing({
      endpoint: `http://127.0.0.1:${port}`,
      serviceName: 'shop',
      dbSystem: testDialect === 'postgres' ? 'postgresql' : 'sqlite',
    });
    t = await createTestApp({
      tracing,
      // PayPal's IPN validation, as a stand-in at PayPal's own address.
      paymentFetch: (async () => new Response('VERIFIED')) as unknown as typeof fetch,
    });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(async () => {
    await t.close();
    await tracing.shutdown();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it("finds a checkout's request, its statements and its payment's provider call and mail in one trace each", async () => {
    const product = await fx.product(2500, 5);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: product.stockId, requestedQty: 1 }]),
    });
    const order = commitResponseSchema.parse(committed.json());
    if (!order.ok) throw new Error('expected an order');
    const commitRequestId = String(committed.headers['x-request-id']);

    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: new URLSearchParams({
        mc_gross: '34.95',
        invoice: String(order.orderNumber),
        payment_status: 'Completed',
        txn_id: `TXN${order.orderNumber}`,
        mc_currency: 'GBP',
        receiver_email: LOCAL_PAYPAL_BUSINESS_EMAIL,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode).toBe(200);
    const paymentRequestId = String(paid.headers['x-request-id']);
    await mailQueueDrained(t.db, t.server);
    await tracing.flush();

    expect(receiver.paths[0]).toMatch(/^POST \/v1\/traces application\/json/);
    const traceOf = (requestId: string) => {
      const requestSpans = receiver.spans.filter((span) => span.attributes[REQUEST_ID_ATTRIBUTE] === requestId);
      expect(requestSpans, `the request span of ${requestId}`).toHaveLength(1);
      const root = requestSpans[0] as ExportedSpan;
      return { root, spans: receiver.spans.filter((span) => span.traceId === root.traceId) };
    };

    // The commit: its request span, and every statement of its transaction beneath it.
    const checkout = traceOf(commitRequestId);
    expect(checkout.root.parentSpanId ?? '').toBe('');
    expect(checkout.root.attributes['http.route']).toBe('/api/basket');
    const statements = checkout.spans.filter((span) => span.attributes['db.system.name'] !== undefined);
    const systemName = testDialect === 'postgres' ? 'postgresql' : 'sqlite';
    expect(statements.every((span) => span.attributes['db.system.name'] === systemName)).toBe(true);
    const operations = statements.map((span) => span.attributes['db.operation.name']);
    // The stock taken for every line at once: an UPDATE, which PostgreSQL locks first in a WITH; the
    // order and its lines are inserted there in a WITH too (one statement each, ADR 0018).
    const writes = testDialect === 'postgres' ? ['with'] : ['update', 'insert'];
    expect(operations).toEqual(expect.arrayContaining(['begin', 'select', ...writes, 'commit']));
    expect(statements.some((span) => /insert into "orders"/.test(String(span.attributes['db.query.text'])))).toBe(true);
    // The statement's values are not sent: the shopper's e-mail address is nowhere in the trace.
    expect(JSON.stringify(checkout.spans)).not.toContain('asha@example.com');

    // The payment: PayPal's validation call is a span of its request's trace. The confirmation
    // e-mail it queued is sent by the queue's worker, in this trace or, when the worker was already
    // busy, in a trace of its own.
    const payment = traceOf(paymentRequestId);
    expect(payment.root.traceId).not.toBe(checkout.root.traceId);
    const providerCall = payment.spans.find((span) => span.attributes['peer.service'] === 'payment provider');
    expect(providerCall?.attributes['http.request.method']).toBe('POST');
    expect(providerCall?.attributes['http.response.status_code']).toBe(200);
    expect(receiver.spans.filter((span) => span.name === 'mail send')).toHaveLength(1);
  });
});

describe('tracing and metrics off', () => {
  it('loads no OpenTelemetry code and no prom-client when OTEL_EXPORTER_OTLP_ENDPOINT and METRICS_PORT are unset', () => {
    // A process of its own, which records every module resolved while the app is built and serves.
    const script = `
      import { registerHooks } from 'node:module';
      const seen = [];
      registerHooks({
        resolve(specifier, context, next) {
          if (/opentelemetry|fastify\\/otel|tracing\\.ts|prom-client|metrics\\.ts/.test(specifier)) seen.push(specifier);
          return next(specifier, context);
        },
      });
      const { buildApp } = await import('./src/server/app.ts');
      const { loadConfig } = await import('./src/server/config.ts');
      const { openDatabase } = await import('./src/server/db/database.ts');
      const { migrateToLatest } = await import('./src/server/db/migrate.ts');
      const db = openDatabase('sqlite::memory:');
      await migrateToLatest(db);
      const app = await buildApp({ config: loadConfig(${JSON.stringify(testEnvironment)}), db });
      const answer = await app.inject({ method: 'GET', url: '/api/product-types' });
      await app.close();
      await db.destroy();
      console.log(JSON.stringify({ seen, status: answer.statusCode }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: new URL('../../../', import.meta.url),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ seen: [], status: 200 });
  });
});
