import type { LabelCarrierDeps } from '../../src/server/shipping/shipping.feature.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { LogEvent } from 'kysely';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/database.ts';
import { seedDemoCatalogue } from '../../src/server/catalog/demo/demo-catalogue.ts';
import type { RenderPage } from '../../src/server/http/server-render.ts';
import type { DevWebOptions } from '../../src/server/http/dev-web.ts';
import type { Tracing } from '../../src/server/tracing/tracing.ts';
import type { Clock } from '../../src/server/cache/cached-loader.ts';
import type { AdapterFactory } from '../../src/server/payments/payment-provider.ts';
import { createTestDb, type TestDatabase } from './test-db.ts';
import { csrfTokenForCookies, TEST_SESSION_SECRET } from './csrf.ts';
import { checkAnswersAgainstOpenApi } from './openapi-answers.ts';
import { testEnvironment } from './test-environment.ts';

export interface TestApp {
  /** The app as the shop's page calls it: state-changing calls echo the CSRF token. */
  app: FastifyInstance;
  /** The app with nothing added, for tests of what a request without the token gets. */
  server: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: Config;
  /** Where this app's mail goes (a temp folder of its own). */
  outboxDir: string;
  close(): Promise<void>;
}

/** buildApp() on a fresh test database; `demo` seeds the demo catalogue first. */
export async function createTestApp(
  options: {
    demo?: boolean;
    env?: Record<string, string>;
    webRoot?: string;
    paymentFetch?: typeof fetch;
    /** Payment providers beside the configured ones (a fake provider defined in a test). */
    paymentAdapters?: Record<string, AdapterFactory>;
    logStream?: NodeJS.WritableStream;
    /** Tracing, as start.ts sets it up when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
    tracing?: Tracing;
    /** Told of every statement the app's database connection runs (Kysely's log), after tracing. */
    log?: (event: LogEvent) => void;
    /** PostgreSQL: the money path's own pool, as the serving shop opens it (DATABASE_CHECKOUT_POOL_SIZE). */
    checkoutPoolSize?: number;
    /** Draws the storefront's pages on the server (src/server/http/server-render.ts). */
    renderPage?: RenderPage;
    /** WEB_DEV_SERVER: the Vite configuration the hosted development server uses. */
    devWeb?: DevWebOptions;
    /** The caches' clock: a test moves it on instead of waiting out a lifetime (test/helpers/clock.ts). */
    now?: Clock;
    /** Wraps the connection the app is given (a test injecting faults into its statements). */
    wrapDb?: (db: Db) => Db;
    /** The label carrier's clocks and batch size (src/server/shipping/shipping.feature.ts). */
    labels?: LabelCarrierDeps;
  } = {},
): Promise<TestApp> {
  const logs = [options.tracing?.logQuery, options.log].filter((log) => log !== undefined);
  const { db, database } = await createTestDb({
    ...(logs.length > 0 ? { log: (event: LogEvent) => logs.forEach((log) => log(event)) } : {}),
    ...(options.checkoutPoolSize ? { checkoutPoolSize: options.checkoutPoolSize } : {}),
  });
  if (options.demo) await seedDemoCatalogue(db);
  const outboxDir = mkdtempSync(join(tmpdir(), 'shop-outbox-'));
  const config = loadConfig({
    ...testEnvironment,
    MAIL_OUTBOX_DIR: outboxDir,
    SESSION_SECRET: TEST_SESSION_SECRET,
    // The suites written for PayPal Standard rely on it; PayPal Checkout's own tests set checkout.
    PAYPAL_INTEGRATION: 'standard',
    // A test that reads the statements sent (`log`) reads this connection's: commits stay on it.
    ...(options.log ? { CHECKOUT_THREAD: 'false' } : {}),
    ...options.env,
  });
  const app = await buildApp({
    config,
    db: options.wrapDb ? options.wrapDb(db) : db,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.paymentFetch ? { paymentFetch: options.paymentFetch } : {}),
    ...(options.paymentAdapters ? { paymentAdapters: options.paymentAdapters } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.tracing ? { tracing: options.tracing } : {}),
    ...(options.renderPage ? { renderPage: options.renderPage } : {}),
    ...(options.devWeb ? { devWeb: options.devWeb } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.labels ? { labels: options.labels } : {}),
  });
  const answers = checkedAnswers(app);
  await app.ready();
  return {
    app: likeTheShopPage(app, config, answers),
    server: app,
    db,
    database,
    config,
    outboxDir,
    async close() {
      await app.close();
      await database.drop();
      rmSync(outboxDir, { recursive: true, force: true });
      answers.throwIfAny();
    },
  };
}

/**
 * Another instance of the shop on the same database as `first`, with its own connection, as a
 * second process behind a load balancer would have. Closed by its own close(), before first's.
 */
export async function createSecondInstance(
  first: TestApp,
  options: { now?: Clock; config?: Partial<Config> } = {},
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const app = await buildApp({
    // `config`: a start with other variables (settings the environment only seeds, issue 37).
    config: { ...first.config, ...options.config },
    db: first.database.connect(),
    ...(options.now ? { now: options.now } : {}),
  });
  const answers = checkedAnswers(app);
  await app.ready();
  return {
    app: likeTheShopPage(app, first.config, answers),
    async close() {
      await app.close();
      answers.throwIfAny();
    },
  };
}

/**
 * Every JSON answer under /api is checked against the OpenAPI document (openapi-answers.ts). A
 * mismatch fails the inject() that got it, or, for answers that came another way (over HTTP, or
 * through `server`), the app's close().
 */
function checkedAnswers(app: FastifyInstance) {
  const mismatches: string[] = [];
  checkAnswersAgainstOpenApi(app, (mismatch) => mismatches.push(mismatch));
  return {
    throwIfAny() {
      if (mismatches.length === 0) return;
      const found = mismatches.splice(0);
      throw new Error(`Answers unlike the OpenAPI document (src/server/http/openapi.ts):\n${found.join('\n')}`);
    },
  };
}

/**
 * Wraps inject so that every non-GET request carries the XSRF-TOKEN cookie and header, as the
 * shop's page sends them (signed for the sessions the request carries), unless the test sets the
 * header itself.
 */
function likeTheShopPage(
  app: FastifyInstance,
  config: Config,
  answers: ReturnType<typeof checkedAnswers>,
): FastifyInstance {
  const checked = async (answer: Promise<LightMyRequestResponse>) => {
    const response = await answer;
    answers.throwIfAny();
    return response;
  };
  const inject = (options: InjectOptions | string) => {
    if (typeof options === 'string') return checked(app.inject(options));
    const method = String(options.method ?? 'GET').toUpperCase();
    const headers = { ...((options.headers as Record<string, string> | undefined) ?? {}) };
    if (method !== 'GET' && method !== 'HEAD' && !('x-xsrf-token' in headers)) {
      const token = csrfTokenForCookies(headers.cookie, {
        ...(config.sessionSecret ? { secret: config.sessionSecret } : {}),
        secure: config.env === 'production',
      });
      headers['x-xsrf-token'] = token;
      headers.cookie = [headers.cookie, `XSRF-TOKEN=${token}`].filter(Boolean).join('; ');
    }
    return checked(app.inject({ ...options, headers }));
  };
  return new Proxy(app, {
    get(target, property) {
      if (property === 'inject') return inject;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
