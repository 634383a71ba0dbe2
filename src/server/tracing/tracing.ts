import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyPluginCallback } from 'fastify';
import type { LogEvent } from 'kysely';
import { redactAddress } from '../http/redact-address.ts';
import type { MailTransport } from '../mail/mailer.ts';

/**
 * OpenTelemetry traces, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set: start.ts imports this
 * file then and only then, so with it unset no SDK is loaded and nothing is measured
 * (docs/decisions/0016-metrics-and-traces.md). Spans, each trace one request:
 * - the request, by Fastify's own plugin (@fastify/otel), carrying the request id (`shop.request_id`);
 * - each database statement, from Kysely's log hook (given to openDatabase), on both databases;
 * - each call to a payment provider (the payments' fetch) and each e-mail handed to SMTP.
 * Statements outside any request or mail send (the reservation sweep, the mail worker's polling)
 * make no spans: they would each be a trace of one span.
 */

export interface Tracing {
  /** Registered first in buildApp, so that every route is traced. */
  fastifyPlugin: FastifyPluginCallback;
  /** Kysely's `log`: one span per statement, within the request or mail send that ran it. */
  logQuery(event: LogEvent): void;
  /** The payments' fetch with a client span around each call. */
  tracedFetch(inner: typeof fetch): typeof fetch;
  /** The mail transport with a span around each delivery. */
  tracedTransport(inner: MailTransport): MailTransport;
  /** Sends the spans not yet sent (tests, and before the process stops). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export const REQUEST_ID_ATTRIBUTE = 'shop.request_id';

/** How long a stopping process waits for its last spans to be sent. */
const SHUTDOWN_WAIT_MS = 2_000;

export function startTracing(settings: {
  endpoint: string;
  serviceName: string;
  /** The database as OpenTelemetry's `db.system` names it (databaseSystemOf). */
  dbSystem: 'postgresql' | 'sqlite';
  /** Where spans go instead of the OTLP endpoint (a test's in-memory exporter). */
  exporter?: SpanExporter;
}): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.serviceName,
    }),
    // Spans leave in batches, off the request's path; the exporter posts OTLP as JSON over HTTP.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: settings.exporter ?? new OTLPTraceExporter({ url: `${settings.endpoint}/v1/traces` }),
      }),
    ],
  });
  // Spans started in a request's async work are its children (AsyncLocalStorage carries them).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer('shop');

  const fastifyOtel = new FastifyOtelInstrumentation({
    // The request and its handler; a span for each of the shop's dozen hooks would bury them.
    instrumentHooks: false,
    // url.path is the whole address, query and all: written again without its secrets (tokens,
    // order codes) before the span is sent anywhere.
    requestHook: (span: Span, request: { id: string; url: string }) =>
      span.setAttributes({ [REQUEST_ID_ATTRIBUTE]: request.id, 'url.path': redactAddress(request.url) }),
  });
  fastifyOtel.setTracerProvider(provider);

  const { dbSystem } = settings;
  function logQuery(event: LogEvent): void {
    // Only within a request or a mail send (see above).
    if (!trace.getActiveSpan()) return;
    const sql = event.query.sql;
    const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'statement';
    const span = tracer.startSpan(`${operation} ${dbSystem}`, {
      kind: SpanKind.CLIENT,
      startTime: Date.now() - event.queryDurationMillis,
      attributes: {
        'db.system.name': dbSystem,
        'db.operation.name': operation,
        // The statement's text with its placeholders: the values, which may be a customer's, are not sent.
        'db.query.text': sql.slice(0, 2000),
      },
    });
    if (event.level === 'error') {
      span.recordException(event.error instanceof Error ? event.error : String(event.error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }

  function tracedFetch(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      return tracer.startActiveSpan(
        `${method} ${url.hostname}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': method,
            'server.address': url.hostname,
            // The path without its query, which could carry a token, nor the secrets in the path
            // (PayPal's order id, the shopper's return token).
            'url.full': `${url.origin}${redactAddress(url.pathname)}`,
            'peer.service': 'payment provider',
          },
        },
        async (span) => {
          try {
            const response = await inner(input, init);
            span.setAttribute('http.response.status_code', response.status);
            if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
            return response;
          } catch (error) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    };
  }

  function tracedTransport(inner: MailTransport): MailTransport {
    return {
      // No recipient or subject: they are a customer's.
      deliver: (message) =>
        tracer.startActiveSpan('mail send', { kind: SpanKind.CLIENT }, async (span) => {
          try {
            await inner.deliver(message);
          } catch (error) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        }),
      close: () => inner.close(),
    };
  }

  return {
    fastifyPlugin: fastifyOtel.plugin(),
    logQuery,
    tracedFetch,
    tracedTransport,
    flush: () => provider.forceFlush(),
    // A collector that is down must not hold the process: the last spans get two seconds.
    shutdown: () =>
      Promise.race([
        provider.shutdown(),
        new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
      ]),
  };
}
