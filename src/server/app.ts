import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { URL_KEY_MAX } from '../contract/catalog-rules.ts';
import { shopIdentitySchema } from '../contract/shop.ts';
import { accountsFeature, createShopAccounts } from './accounts/accounts.feature.ts';
import { sessionCookieName } from './accounts/session.ts';
import { backOfficeFeature } from './back-office.feature.ts';
import { basketFeature } from './basket/basket.feature.ts';
import type { Clock } from './cache/cached-loader.ts';
import { cancellationFeature } from './cancellation/cancellation.feature.ts';
import { catalogFeature, createShopCatalog, startSearchEngine } from './catalog/catalog.feature.ts';
import { createPhotoServices } from './catalog/photos/photo-services.ts';
import type { Config } from './config.ts';
import { setUpLabelCarrier, type LabelCarrierDeps } from './shipping/shipping.feature.ts';
import { contactFeature } from './contact/contact.feature.ts';
import { createShopDocuments, documentsFeature } from './documents/documents.feature.ts';
import { createShopReturns, returnsFeature } from './returns/returns.feature.ts';
import { startShopSettings } from './settings/settings.service.ts';
import type { Db } from './db/database.ts';
import { schedulePlannerStatistics } from './db/planner-statistics.ts';
import { settingOrCreate } from './db/settings.repository.ts';
import { registerCsrf } from './http/csrf.ts';
import type { DevWebOptions } from './http/dev-web.ts';
import { answerFrameworkError, registerErrorHandling } from './http/errors.ts';
import { waitForHandlersOnClose } from './http/in-flight.ts';
import { registerNulCharacterGuard } from './http/nul-characters.ts';
import { registerOpenApi } from './http/openapi.ts';
import { databaseRateLimitStore } from './http/rate-limit/database-store.ts';
import { createRateLimitRepository } from './http/rate-limit/rate-limit.repository.ts';
import { redactAddress } from './http/redact-address.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { loadPageRenderer, type RenderPage } from './http/server-render.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerZod } from './http/zod.ts';
import { inboxRoutes } from './mail/inbox.routes.ts';
import { registerMailQueue } from './mail/mail-queue.ts';
import { registerMetrics } from './metrics/metrics-listener.ts';
import { createShopOrderPage, orderPageFeature } from './order-page/order-page.feature.ts';
import { orderPagePathOf } from './order-page/order-page.service.ts';
import { createOrderLinks } from './orders/order-links.ts';
import { ordersFeature, startCheckoutThreadFor } from './orders/orders.feature.ts';
import type { AdapterFactory } from './payments/payment-provider.ts';
import { paymentsFeature } from './payments/payments.feature.ts';
import { createPaymentsService } from './payments/payments.service.ts';
import { createPageHead } from './seo/page-head.ts';
import { seoFeature } from './seo/seo.feature.ts';
import { staffCookieName } from './staff/staff-guard.ts';
import type { Tracing } from './tracing/tracing.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Where the built web app is; defaults to dist/web. */
  webRoot?: string;
  /**
   * Renders storefront pages on the server; defaults to the build's (dist/ssr) when the built
   * web app is served from dist/web, and SERVER_RENDER is on.
   */
  renderPage?: RenderPage;
  /** Development: the Vite configuration the hosted dev server uses (WEB_DEV_SERVER); tests give their own. */
  devWeb?: DevWebOptions;
  /** How payments reach PayPal's IPN validation; tests give a stand-in. */
  paymentFetch?: typeof fetch;
  /** Payment providers beside the configured ones, keyed by id (a test's fake provider). */
  paymentAdapters?: Record<string, AdapterFactory>;
  /** Where the JSON log lines go; standard output unless a test reads them. */
  logStream?: NodeJS.WritableStream;
  /**
   * OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set (start.ts loads it then only); its
   * statements' spans come from the `log` the database was opened with.
   */
  tracing?: Tracing;
  /** How the caches tell age: the system's clock unless a test moves its own on. */
  now?: Clock;
  /** The label carrier's clocks and batch size (a test moves time instead of waiting). */
  labels?: LabelCarrierDeps;
}

/** How long a client may take to send a request's headers (within REQUEST_TIMEOUT_SECONDS). */
const HEADERS_TIMEOUT_MS = 10_000;

/** The whole HTTP application without a listening socket: tests drive it with app.inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, webRoot } = deps;
  const logStream = deps.logStream ?? (config.logFormat === 'pretty' ? await prettyLogStream() : undefined);
  // `npm run dev`: Vite's development server is hosted in this one, on its port (dev-web.ts); Vite,
  // a development dependency, is not even loaded otherwise.
  const viteHost = config.webDevServer ? (await import('./http/dev-web.ts')).hostVite(deps.devWeb) : undefined;
  // Addresses are logged without the secrets some carry (tokens, order codes: redact-address.ts).
  const logger: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    serializers: { req: requestForLog },
    ...(logStream ? { stream: logStream } : {}),
  };
  const app = Fastify({
    ...(viteHost ? { serverFactory: viteHost.serverFactory } : {}),
    // JSON lines, one per event, each carrying the request id (docs/rules.md#operations).
    logger,
    genReqId: requestIdOf,
    // Behind a reverse proxy, the client's address comes from X-Forwarded-For (rate limits use it).
    // A number is how many proxies stand in front: only their hops are believed (proxy-addr's hop count).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (() => {
            const hops = config.trustProxy;
            return (_address: string, hop: number) => hop < hops;
          })()
        : config.trustProxy,
    bodyLimit: 256 * 1024,
    // A path's parts may be as long as a product's URL key (find-my-way's 100 by default refused the
    // longer keys staff may save, 414); longer ones are still refused before any route runs.
    routerOptions: { maxParamLength: 2 * URL_KEY_MAX },
    // Slow clients are cut off (docs/rules.md#security): a request must arrive whole within the
    // configured time (Fastify leaves Node's limit off unless told) and its headers within 10 s
    // of it, or it is answered 408 and its connection closed. Node checks every connection for
    // this once a second (every 30 s by default, which would let a slow client stay half a minute
    // longer). An idle keep-alive connection keeps Fastify's 72 s: longer than the 60 s most
    // proxies and load balancers keep theirs, so the shop never closes one as the proxy reuses it.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutMs), connectionsCheckingInterval: 1_000 },
    // JSON bodies with these keys are rejected instead of reaching a service.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // The router's own refusals (an address that does not decode) answer in the shop's error shape.
    frameworkErrors: answerFrameworkError,
  });
  // First, so that every route and hook after it is traced.
  if (deps.tracing) await app.register(deps.tracing.fastifyPlugin);
  registerZod(app, config.env !== 'production');
  await registerOpenApi(app, { publicUrl: config.publicUrl, production: config.env === 'production' });
  // The API speaks JSON only; a text body is refused with a 415 rather than half-understood.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  // close() also waits for handlers whose clients hung up, so the database outlives them.
  waitForHandlersOnClose(app, 10_000);
  // Prometheus metrics on their own listener when METRICS_PORT is set; the features are handed
  // these hooks, and with metrics off are handed none (src/server/metrics/).
  const metrics = await registerMetrics(app, db, config);
  // Answers over 1 kB are compressed for clients that ask; built assets come precompressed.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await registerSecurityHeaders(app, config.env === 'production');
  // After the security headers' hook, so its refusals carry them too.
  registerNulCharacterGuard(app);
  await app.register(fastifyCookie);
  // Answers name their request id, so a shopper's report can be matched to the log.
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // An API answer is for whoever asked (an account, a recovered basket): no browser or proxy
    // keeps one unless its route says it may.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  // Limits are set per route (sign-in, registration, reset, contact, recovery); none elsewhere.
  // They count in the database, so every instance on it shares them; on the money path's
  // connections, since they guard payment notifications and returns (db.checkout).
  const counters = createRateLimitRepository(db.checkout);
  await app.register(fastifyRateLimit, {
    global: false,
    store: databaseRateLimitStore(counters),
  });
  const secureCookies = config.env === 'production';
  // SESSION_SECRET signs the CSRF tokens and the browser marks of staff and shoppers; without it (development,
  // tests) one made for this database, so every instance on it accepts the others'.
  const cookieSecret =
    config.sessionSecret ??
    (await settingOrCreate(db.kysely, 'csrf_secret', () => randomBytes(32).toString('base64url')));
  registerCsrf(app, {
    secure: secureCookies,
    secret: cookieSecret,
    sessionCookies: [sessionCookieName(secureCookies), staffCookieName(secureCookies)],
  });

  // The owner's settings (issue 37): the environment's SHOP_* seed them on the first start only;
  // they also give the invoices and credit notes issued from now on their issuer.
  const settings = await startShopSettings(db.kysely, config, deps.now ? { now: deps.now } : {});

  // Services queue mail; this instance's worker sends it (docs/rules.md#mail), so no request waits for SMTP.
  const takes = config.shop.takes;
  const shopNow = () => settings.identity(takes);
  const mailer = registerMailQueue(
    app,
    db,
    {
      ...config,
      cookieSecret,
      shopNow: async () => ({ shop: await shopNow(), vatNumber: (await settings.current()).vatNumber }),
    },
    deps.tracing?.tracedTransport,
  );
  const logMailError = (error: unknown) => app.log.error({ err: error }, 'e-mail not sent');
  // Without SMTP outside production, the outbox's mail is read in the browser (mail/inbox.routes.ts).
  if (config.env !== 'production' && !config.smtpUrl) {
    await app.register(inboxRoutes, { outboxDir: config.mailOutboxDir });
  }
  // The shop's identity as this instance knows it (re-read within seconds of an owner's change).
  app.get('/api/shop', { schema: { response: { 200: shopIdentitySchema } } }, shopNow);
  // Health for load balancers and orchestrators: the process is up; the database answers.
  app.get('/healthz', () => ({ ok: true }));
  const searchEngine = startSearchEngine(app, db, config);
  // Its own short limit (docs/rules.md#operations): a hung database makes it answer 503 within 2 s, not hang.
  // Not ready either until this instance's search index is built (docs/decisions/0026-one-search-engine.md):
  // a load balancer then sends it no search that would wait for the build.
  app.get('/readyz', async (_request, reply) => {
    const [database, search] = await Promise.all([db.ping(1_500), searchEngine.built(1_500)]);
    return database && search ? { ok: true } : reply.status(503).send({ ok: false });
  });
  // After the search index's start, which it would otherwise hold up while the statistics refresh.
  schedulePlannerStatistics(app, db, config.backgroundJobs);

  // The features (docs/architecture.md, "composition"): each a plugin registering its routes, timers
  // and hooks in a scope of its own. What one makes and others use is made here and handed over.
  const catalog = createShopCatalog(db, searchEngine, { config, metrics, now: deps.now });
  // A catalogue write on this instance shows at once (ADR 0010): in its catalogue and search caches,
  // and in the pages it keeps (registered last, below). Stock adjustments and photos too.
  let forgetPages = (): void => undefined;
  const catalogueChanged = () => {
    catalog.clearCaches();
    forgetPages();
  };
  const photos = createPhotoServices(db, { onChange: catalogueChanged });
  const checkoutThread = startCheckoutThreadFor(app, db, config, { metrics, tracing: deps.tracing });
  // The customer's order page's links are signed with the same secret as the documents' (order-links.ts).
  const orderLinks = createOrderLinks(cookieSecret);
  const orderPagePath = orderPagePathOf(orderLinks);
  const accounts = createShopAccounts(db, {
    mailer,
    orderPagePath,
    config,
    shopName: async () => (await settings.current()).name,
    counters,
    secureCookies,
    log: logMailError,
  });
  // Payments on the money path's own connections: a sale's browsing never makes a payment
  // notification wait for one (docs/decisions/0020-checkout-first.md). The back office refunds
  // through its providers. The calls to PayPal and Opayo are each a span when tracing.
  const paymentFetch = deps.tracing ? deps.tracing.tracedFetch(deps.paymentFetch ?? fetch) : deps.paymentFetch;
  const documents = createShopDocuments(db, { photoStore: photos.store, cookieSecret });
  // The confirmation e-mail carries the signed link to the order's VAT invoice.
  const invoiceUrl = (orderNumber: number, linkVersion: number) =>
    `${config.publicUrl}${documents.links.pathTo('invoice', orderNumber, linkVersion)}`;
  const orderPage = createShopOrderPage(db, {
    links: orderLinks,
    publicUrl: config.publicUrl,
    shopAddress: async () => (await settings.current()).address,
    documents,
  });
  const payments = createPaymentsService(db.checkout, config, {
    mailer,
    shopName: async () => (await settings.current()).name,
    invoiceUrl,
    orderPagePath,
    ...(paymentFetch ? { fetch: paymentFetch } : {}),
    ...(deps.paymentAdapters ? { adapters: deps.paymentAdapters } : {}),
    ...(metrics ? { onNotification: metrics.paymentNotification } : {}),
  });
  const { rateLimitFactor } = config;
  await app.register(catalogFeature, { catalog, photoStore: photos.store });
  await app.register(basketFeature, { db, checkoutThread, rateLimitFactor });
  await app.register(ordersFeature, {
    db,
    config,
    ordersEmailNow: async () => (await settings.current()).ordersEmail,
    metrics,
    checkoutThread,
    customerOf: accounts.checkoutGuard.optionalCustomerOf,
  });
  await app.register(paymentsFeature, { payments, counters, config, db, sandboxFetch: deps.paymentFetch });
  await app.register(accountsFeature, {
    accounts,
    counters,
    rateLimitFactor,
    secureCookies,
    deviceSecret: cookieSecret,
  });
  await app.register(contactFeature, { db, mailer, config, counters, shopNow });
  await app.register(documentsFeature, { documents, rateLimitFactor });
  await app.register(orderPageFeature, { orderPage, rateLimitFactor });
  await app.register(cancellationFeature, {
    db,
    cookieSecret,
    providerOf: payments.providerOf,
    ordersEmail: async () => (await settings.current()).ordersEmail,
    publicUrl: config.publicUrl,
    rateLimitFactor,
  });
  const returns = createShopReturns(db, {
    config,
    returnAddress: async () => {
      const shop = await settings.current();
      return `${shop.name}, ${shop.address}`;
    },
    cookieSecret,
    providerOf: payments.providerOf,
    mailer,
    now: deps.now,
  });
  await app.register(returnsFeature, { returns: returns.service, orderOfKey: returns.orderOfKey, rateLimitFactor });
  const labelCarrier = await setUpLabelCarrier(app, config, deps.labels);
  await app.register(backOfficeFeature, {
    prefix: '/api/admin',
    labelCarrier,
    ...(deps.labels?.now ? { labelClock: deps.labels.now } : {}),
    db,
    config,
    secureCookies,
    counters,
    cookieSecret,
    metrics,
    providerOf: payments.providerOf,
    searchEngine,
    checkoutThread,
    photos: photos.admin,
    catalogueChanged,
    documents: documents.service,
    invoiceUrl,
    orderPage,
    returns: returns.service,
    mailer,
    settings,
  });
  await app.register(seoFeature, { catalog, publicUrl: config.publicUrl });

  // The web app: the storefront's and the back office's pages, last (its not-found handler answers them).
  const dev = viteHost ? await viteHost.start(app.server) : undefined;
  // Before the HTTP server closes, which waits for every connection: Vite's close drops the open
  // tabs' hot-reload sockets, which would otherwise hold a restart up until start.ts gives up.
  if (dev) app.addHook('preClose', dev.close);
  const renderPage = !config.serverRender
    ? undefined
    : dev
      ? dev.renderPage
      : (deps.renderPage ?? (webRoot ? undefined : await loadPageRenderer()));
  const web = await registerWebApp(app, {
    shop: shopNow,
    publicUrl: config.publicUrl,
    pageCacheSeconds: config.pageCacheSeconds,
    ...(deps.now ? { now: deps.now } : {}),
    sessionCookies: [sessionCookieName(secureCookies), staffCookieName(secureCookies)],
    production: config.env === 'production',
    ...(webRoot ? { root: webRoot } : {}),
    pageHead: createPageHead({ catalog, shop: shopNow, publicUrl: config.publicUrl, log: app.log }),
    ...(renderPage ? { renderPage } : {}),
    ...(dev ? { dev } : {}),
    log: app.log,
  });
  forgetPages = web.forgetPages;
  // An owner's change shows at once on this instance's pages (others within their cache windows).
  settings.onChange(web.forgetPages);
  return app;
}

/** Readable log lines for a developer, made in this thread (pino-pretty is loaded only then). */
async function prettyLogStream(): Promise<NodeJS.WritableStream> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
}

/** Fastify's own request serializer, with the address's secrets redacted. */
function requestForLog(request: {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  host: string;
  ip: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: redactAddress(request.url),
    version: [request.headers['accept-version']].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** A proxy's X-Request-Id is kept when it is a plain token; otherwise a new one is made. */
function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}
