import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createCatalogRepository } from './catalog/catalog.repository.ts';
import { catalogRoutes } from './catalog/catalog.routes.ts';
import { createCatalogService } from './catalog/catalog.service.ts';
import { createSearchEngine } from './catalog/search-engine/search-engine.ts';
import { createSearchEngineRepository } from './catalog/search-engine/search-engine.repository.ts';
import { productImageRoutes } from './catalog/images/image.routes.ts';
import { catalogAdminRoutes } from './catalog/catalog.admin-routes.ts';
import { createCatalogAdminService } from './catalog/catalog.admin-service.ts';
import { productsCsvAdminRoutes } from './catalog/products-csv.admin-routes.ts';
import { createProductsCsvService } from './catalog/products-csv.admin-service.ts';
import { createPhotoServices } from './catalog/photos/photo-services.ts';
import { photoFileRoutes } from './catalog/photos/photo-files.routes.ts';
import { photosAdminRoutes } from './catalog/photos/photos.admin-routes.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { answerFrameworkError, registerErrorHandling } from './http/errors.ts';
import { redactAddress } from './http/redact-address.ts';
import { registerWebApp } from './http/web-app.ts';
import { loadPageRenderer, type RenderPage } from './http/server-render.ts';
import type { DevWebOptions } from './http/dev-web.ts';
import { registerZod } from './http/zod.ts';
import { registerOpenApi } from './http/openapi.ts';
import { basketRoutes } from './basket/basket.routes.ts';
import type { BasketQuery } from '../contract/basket.ts';
import { URL_KEY_MAX } from '../contract/catalog-rules.ts';
import { createBasketService } from './basket/basket.service.ts';
import { startCheckoutThread } from './orders/checkout-thread/checkout-thread.ts';
import { ordersRoutes } from './orders/orders.routes.ts';
import { createOrdersService, type OrdersService } from './orders/orders.service.ts';
import { createPageHead } from './seo/page-head.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { createPaymentsService } from './payments/payments.service.ts';
import type { AdapterFactory } from './payments/payment-provider.ts';
import { inboxRoutes } from './mail/inbox.routes.ts';
import { registerMailQueue } from './mail/mail-queue.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { createAccountsService } from './accounts/accounts.service.ts';
import { contactRoutes } from './contact/contact.routes.ts';
import { createContactService } from './contact/contact.service.ts';
import { registerCsrf } from './http/csrf.ts';
import { registerNulCharacterGuard } from './http/nul-characters.ts';
import { waitForHandlersOnClose } from './http/in-flight.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { createSignInGuard } from './accounts/sign-in-guard.ts';
import { paymentSandboxRoutes } from './payments/sandbox/sandbox.routes.ts';
import { seoRoutes } from './seo/seo.routes.ts';
import { createStaffService } from './staff/staff.service.ts';
import { createStaffGuard, staffCookieName } from './staff/staff-guard.ts';
import { sessionCookieName } from './accounts/session.ts';
import { settingOrCreate } from './db/settings.repository.ts';
import { staffAdminRoutes } from './staff/staff.admin-routes.ts';
import { auditAdminRoutes } from './audit/audit.admin-routes.ts';
import { createAuditService } from './audit/audit.service.ts';
import { ordersAdminRoutes } from './orders/orders.admin-routes.ts';
import { dashboardAdminRoutes } from './dashboard/dashboard.admin-routes.ts';
import { createDashboardService } from './dashboard/dashboard.admin-service.ts';
import { customersAdminRoutes } from './accounts/customers.admin-routes.ts';
import { createCustomersAdminService } from './accounts/customers.admin-service.ts';
import { createOrdersAdminService, type OrdersAdminService } from './orders/orders.admin-service.ts';
import { requireHttps } from './http/admin-scope.ts';
import { stockAdminRoutes } from './catalog/stock.admin-routes.ts';
import { createStockAdminService } from './catalog/stock.admin-service.ts';
import { vouchersAdminRoutes } from './basket/vouchers.admin-routes.ts';
import { createVouchersAdminService } from './basket/vouchers.admin-service.ts';
import { deliveryAdminRoutes } from './basket/delivery.admin-routes.ts';
import { createDeliveryAdminService } from './basket/delivery.admin-service.ts';
import { databaseRateLimitStore } from './http/rate-limit/database-store.ts';
import { createRateLimitRepository } from './http/rate-limit/rate-limit.repository.ts';
import { registerMetrics } from './metrics/metrics-listener.ts';
import { setDocumentIssuer } from './documents/issue-documents.ts';
import { createDocumentRenderer } from './documents/document-renderer.ts';
import { createDocumentsService } from './documents/documents.service.ts';
import { documentsAdminRoutes } from './documents/documents.admin-routes.ts';
import { documentsRoutes } from './documents/documents.routes.ts';
import { invoiceOfPaidOrder, packingSlipsOf } from './orders/order-documents.ts';
import { printPictures } from './catalog/photos/print-pictures.ts';
import { createDocumentLinks } from './documents/document-links.ts';
import type { Tracing } from './tracing/tracing.ts';
import type { Clock } from './cache/cached-loader.ts';

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
  registerNulCharacterGuard(app);
  // Prometheus metrics on their own listener when METRICS_PORT is set; the features are handed
  // these hooks, and with metrics off are handed none (src/server/metrics/).
  const metrics = await registerMetrics(app, db, config);
  // Answers over 1 kB are compressed for clients that ask; built assets come precompressed.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await registerSecurityHeaders(app, config.env === 'production');
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
  const rateLimitCounters = createRateLimitRepository(db.checkout);
  await app.register(fastifyRateLimit, {
    global: false,
    store: databaseRateLimitStore(rateLimitCounters),
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

  // The shop's details as the invoices and credit notes issued from now on print them.
  await setDocumentIssuer(db.kysely, config.documentIssuer);
  // The signed links that open a customer's invoices and credit notes (their e-mails carry them).
  const documentLinks = createDocumentLinks(cookieSecret);
  // Services queue mail; this instance's worker sends it (docs/rules.md#mail), so no request waits for SMTP.
  const mailer = registerMailQueue(app, db, config, deps.tracing?.tracedTransport);
  const logMailError = (error: unknown) => app.log.error({ err: error }, 'e-mail not sent');
  // Health for load balancers and orchestrators: the process is up; the database answers.
  app.get('/healthz', () => ({ ok: true }));
  const searchEngine = createSearchEngine(createSearchEngineRepository(db.kysely), {
    maxLagMs: config.searchIndexLagMs,
    onError: (error) => app.log.error({ err: error }, 'search index not built'),
    // A database in memory is this connection's alone: another process could not open it.
    ...(db.reopen.url === 'sqlite::memory:' ? {} : { separateBuild: { connection: db.reopen } }),
  });
  // Its own short limit (docs/rules.md#operations): a hung database makes it answer 503 within 2 s, not hang.
  // Not ready either until this instance's search index is built (docs/decisions/0026-one-search-engine.md):
  // a load balancer then sends it no search that would wait for the build.
  app.get('/readyz', async (_request, reply) => {
    const [database, search] = await Promise.all([db.ping(1_500), searchEngine.built(1_500)]);
    return database && search ? { ok: true } : reply.status(503).send({ ok: false });
  });
  app.addHook('onReady', async () => searchEngine.start());
  app.addHook('onClose', async () => searchEngine.stop());
  const catalog = createCatalogService(
    createCatalogRepository(db.kysely),
    {
      searchCacheSeconds: config.searchCacheSeconds,
      catalogCacheSeconds: config.catalogCacheSeconds,
      // One at a time on either database (ADR 0017): on PostgreSQL four at once overlapped their
      // round trips, but queued a product page's reads behind theirs (p99 77 to 80 ms under a
      // closed loop of searches, 37 to 47 with one at a time), for no steadier search.
      searchesAtOnce: 1,
      ...(deps.now ? { now: deps.now } : {}),
      ...(metrics ? { countLookups: metrics.cacheLookups } : {}),
    },
    searchEngine,
  );
  await app.register(catalogRoutes, { prefix: '/api', catalog });
  // On PostgreSQL checkout (pricing a basket, committing it) runs in a thread of its own, off this
  // busy event loop (ADR 0020); with tracing on it stays here, where the statements' spans are made.
  const checkoutThread =
    db.manyConnections && config.checkoutThread && !deps.tracing
      ? startCheckoutThread(
          {
            databaseUrl: db.reopen.url,
            ...(db.reopen.pgSchema ? { pgSchema: db.reopen.pgSchema } : {}),
            poolSize: config.databaseCheckoutPoolSize,
            ...(db.reopen.timeouts ? { timeouts: db.reopen.timeouts } : {}),
            reservationMinutes: config.reservationMinutes,
            unpaidOrderLimits: config.unpaidOrderLimits,
          },
          {
            ...(metrics ? { onOrderEvent: metrics.orderEvent } : {}),
            log: (error) => app.log.error({ err: error }, 'the checkout thread failed'),
          },
        )
      : undefined;
  if (checkoutThread) app.addHook('onClose', () => checkoutThread.close());
  const basket = createBasketService(db.kysely);
  await app.register(basketRoutes, {
    prefix: '/api',
    basket: checkoutThread
      ? { ...basket, verify: (request: BasketQuery) => checkoutThread.verify(request, basket.verify) }
      : basket,
    rateLimitFactor: config.rateLimitFactor,
  });
  const accountsOn = (connections: typeof db.kysely) =>
    createAccountsService(connections, {
      mailer,
      publicUrl: config.publicUrl,
      shopName: config.shop.name,
      counters: rateLimitCounters,
      log: logMailError,
    });
  const accounts = accountsOn(db.kysely);
  const guard = createSignInGuard(accounts, secureCookies);
  // A signed-in shopper's checkout looks up their session on the money path's connections too.
  const checkoutGuard = db.checkout === db.kysely ? guard : createSignInGuard(accountsOn(db.checkout), secureCookies);
  // Orders and payments on the money path's own connections: a sale's browsing never makes a
  // checkout or a payment notification wait for one (docs/decisions/0020-checkout-first.md).
  const orders = createOrdersService(db.checkout, {
    reservationMinutes: config.reservationMinutes,
    unpaidOrderLimits: config.unpaidOrderLimits,
    ...(metrics ? { onOrderEvent: metrics.orderEvent } : {}),
  });
  await app.register(ordersRoutes, {
    prefix: '/api',
    orders: checkoutThread ? { ...orders, commit: checkoutThread.commit } : orders,
    customerOf: checkoutGuard.optionalCustomerOf,
    rateLimitFactor: config.rateLimitFactor,
  });
  scheduleReservationSweep(app, orders, config.backgroundJobs);
  schedulePlannerStatistics(app, db, config.backgroundJobs);
  // The calls to PayPal and Opayo, each a span when tracing.
  const paymentFetch = deps.tracing ? deps.tracing.tracedFetch(deps.paymentFetch ?? fetch) : deps.paymentFetch;
  const payments = createPaymentsService(db.checkout, config, {
    mailer,
    invoiceUrl: (orderNumber) => `${config.publicUrl}${documentLinks.pathTo('invoice', orderNumber)}`,
    ...(paymentFetch ? { fetch: paymentFetch } : {}),
    ...(deps.paymentAdapters ? { adapters: deps.paymentAdapters } : {}),
    ...(metrics ? { onNotification: metrics.paymentNotification } : {}),
  });
  const ordersAdmin = createOrdersAdminService(db.kysely, {
    providerOf: payments.providerOf,
    ...(metrics ? { onOrderEvent: metrics.orderEvent } : {}),
  });
  scheduleRefundSettling(app, ordersAdmin, config.backgroundJobs);
  // Invoices and credit notes, drawn as PDFs in a thread of their own (docs/rules.md#invoices-and-credit-notes).
  const documentRenderer = createDocumentRenderer();
  app.addHook('onClose', () => documentRenderer.close());
  const documents = createDocumentsService(db.kysely, {
    renderer: documentRenderer,
    invoiceOfPaidOrder: (orderNumber) => invoiceOfPaidOrder(db.kysely, orderNumber, () => new Date()),
    packingSlipsOf: (which) => packingSlipsOf(db.kysely, which),
    printPictures: (productIds) => printPictures(db.kysely, photos.store, productIds),
    links: documentLinks,
  });
  await app.register(documentsRoutes, { prefix: '/api', documents });
  await app.register(paymentsRoutes, {
    payments,
    counters: rateLimitCounters,
    rateLimitFactor: config.rateLimitFactor,
  });
  await app.register(accountsRoutes, {
    prefix: '/api',
    accounts,
    guard,
    secureCookies,
    rateLimitFactor: config.rateLimitFactor,
    counters: rateLimitCounters,
    deviceSecret: cookieSecret,
  });
  await app.register(contactRoutes, {
    prefix: '/api',
    rateLimitFactor: config.rateLimitFactor,
    counters: rateLimitCounters,
    contact: createContactService(db.kysely, { mailer, shop: config.shop, counters: rateLimitCounters }),
  });
  // The back office's API (docs/back-office.md): one scope, HTTPS only in production, and every
  // route behind the staff guard unless it says it is public.
  const staff = createStaffService(db.kysely, {
    publicUrl: config.publicUrl,
    shopName: config.shop.name,
  });
  const staffGuard = createStaffGuard(staff, secureCookies);
  // A catalogue write on this instance shows at once (ADR 0010): in its catalogue and search caches,
  // and in the pages it keeps (registered last, below). Stock adjustments and photos too.
  let forgetPages = (): void => undefined;
  const catalogueChanged = () => {
    catalog.clearCaches();
    forgetPages();
  };
  const photos = createPhotoServices(db, { onChange: catalogueChanged });
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', requireHttps(config.env === 'production').hook);
      admin.addHook('onRequest', staffGuard.guard);
      const common = { guard: staffGuard, rateLimitFactor: config.rateLimitFactor };
      await admin.register(staffAdminRoutes, {
        ...common,
        staff,
        secureCookies,
        counters: rateLimitCounters,
        deviceSecret: cookieSecret,
      });
      await admin.register(ordersAdminRoutes, {
        guard: staffGuard,
        orders: ordersAdmin,
      });
      await admin.register(documentsAdminRoutes, { documents });
      await admin.register(customersAdminRoutes, {
        guard: staffGuard,
        customers: createCustomersAdminService(db.kysely),
      });
      await admin.register(dashboardAdminRoutes, {
        dashboard: createDashboardService(db.kysely, { lowStockThreshold: config.lowStockThreshold }),
      });
      await admin.register(auditAdminRoutes, { audit: createAuditService(db.kysely) });
      // Stock, vouchers and delivery (docs/back-office.md#stock-vouchers-and-delivery).
      await admin.register(stockAdminRoutes, {
        guard: staffGuard,
        stock: createStockAdminService(db.kysely, {
          lowStockThreshold: config.lowStockThreshold,
          onChange: catalogueChanged,
          matchingIds: searchEngine.matchingIds,
        }),
      });
      await admin.register(vouchersAdminRoutes, { guard: staffGuard, vouchers: createVouchersAdminService(db.kysely) });
      await admin.register(deliveryAdminRoutes, {
        guard: staffGuard,
        delivery: createDeliveryAdminService(db.kysely, {
          ...(checkoutThread ? { onChange: checkoutThread.forgetReferenceData } : {}),
        }),
      });
      await admin.register(catalogAdminRoutes, {
        guard: staffGuard,
        // Every write clears this instance's catalogue and search caches (ADR 0010), and its pages.
        catalog: createCatalogAdminService(db.kysely, { onChange: catalogueChanged }),
      });
      await admin.register(photosAdminRoutes, { guard: staffGuard, photos: photos.admin });
      await admin.register(productsCsvAdminRoutes, {
        guard: staffGuard,
        csv: createProductsCsvService(db.kysely, { onChange: catalogueChanged }),
      });
    },
    { prefix: '/api/admin' },
  );
  if (config.env !== 'production' && !config.smtpUrl) {
    await app.register(inboxRoutes, { outboxDir: config.mailOutboxDir });
  }
  // The local stand-ins for PayPal and Opayo; config refuses them in production.
  if (config.paypal.mode === 'local' || config.opayo.mode === 'local') {
    await app.register(paymentSandboxRoutes, {
      prefix: '/sandbox',
      config,
      db: db.kysely,
      ...(deps.paymentFetch ? { fetch: deps.paymentFetch } : {}),
    });
  }
  await app.register(productImageRoutes);
  await app.register(photoFileRoutes, { store: photos.store });
  await app.register(seoRoutes, { catalog, publicUrl: config.publicUrl });
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
    shop: config.shop,
    publicUrl: config.publicUrl,
    pageCacheSeconds: config.pageCacheSeconds,
    ...(deps.now ? { now: deps.now } : {}),
    sessionCookies: [sessionCookieName(secureCookies), staffCookieName(secureCookies)],
    production: config.env === 'production',
    ...(webRoot ? { root: webRoot } : {}),
    pageHead: createPageHead({ catalog, shop: config.shop, publicUrl: config.publicUrl, log: app.log }),
    ...(renderPage ? { renderPage } : {}),
    ...(dev ? { dev } : {}),
    log: app.log,
  });
  forgetPages = web.forgetPages;
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

/** Every minute, unpaid orders past their reservation give their stock back (docs/rules.md#orders-and-stock). */
function scheduleReservationSweep(app: FastifyInstance, orders: OrdersService, enabled: boolean): void {
  if (!enabled) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      orders
        .releaseExpiredReservations()
        .catch((error: unknown) => app.log.error({ err: error }, 'reservation sweep failed'));
    }, 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/** Every five minutes, refunds a provider never confirmed are asked about again (docs/back-office.md#orders). */
function scheduleRefundSettling(app: FastifyInstance, orders: OrdersAdminService, enabled: boolean): void {
  if (!enabled) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      orders
        .settleUnconfirmedRefunds()
        .catch((error: unknown) => app.log.error({ err: error }, 'unconfirmed refunds not settled'));
    }, 5 * 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/** At start and every hour: the query planner's statistics kept fresh as the tables grow. */
function schedulePlannerStatistics(app: FastifyInstance, db: Db, enabled: boolean): void {
  if (!enabled) return;
  let timer: NodeJS.Timeout | undefined;
  const refresh = () =>
    db.refreshStatistics().catch((error: unknown) => app.log.error({ err: error }, 'planner statistics not refreshed'));
  app.addHook('onReady', async () => {
    await refresh();
    timer = setInterval(() => void refresh(), 3_600_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
