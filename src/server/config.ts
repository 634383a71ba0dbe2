import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { paymentMarksOf, type ShopIdentity } from '../contract/shop.ts';
import type { DocumentIssuer } from '../contract/documents.ts';

/**
 * Configuration from the environment (docs/rules.md#operations), parsed once at start.
 * A bad value stops the process with a message naming the variable.
 */

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** The local PayPal sandbox's own credentials: refused in production. */
export const LOCAL_PAYPAL_CHECKOUT = {
  clientId: 'local-sandbox-client',
  clientSecret: 'local-sandbox-secret',
  webhookId: 'LOCAL-SANDBOX-WEBHOOK',
} as const;

/**
 * The local Opayo sandbox's Reporting and Admin API user: refused in production. With it (or real
 * ones) staff refunds go through Opayo's REFUND (docs/decisions/0014-opayo-refunds.md).
 */
export const LOCAL_OPAYO_ADMIN = { user: 'raaglocal-reports', password: 'LocalSandboxReports1' } as const;

/** The local Opayo sandbox's vendor and key, and the PayPal address the sandbox pays: refused in production. */
export const LOCAL_OPAYO_VENDOR = { vendor: 'raaglocal', encryptionPassword: 'LocalSandboxKey1' } as const;
export const LOCAL_PAYPAL_BUSINESS_EMAIL = 'payments@raag-instruments.example';

/** Every payment provider the shop can speak to (src/server/payments/providers.ts). */
export const PAYMENT_PROVIDERS = ['paypal', 'paypal-checkout', 'opayo'] as const;
export type PaymentProviderId = (typeof PAYMENT_PROVIDERS)[number];

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1).default('localhost'),
  // Prometheus metrics on a listener of their own (docs/decisions/0016-metrics-and-traces.md): off
  // unless a port is given, and on the loopback address unless told, never on the shop's port.
  METRICS_PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // OpenTelemetry traces, sent as OTLP over HTTP to this collector (…/v1/traces); off when unset.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(100).default('shop'),
  PUBLIC_URL: httpUrl.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<path> or postgres://...')
    .default('sqlite:data/shop.db'),
  // PostgreSQL connections per instance; several instances share the server's max_connections.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  // ...and, apart from those, the money path's own (orders, payments): checkouts never queue behind browsing.
  DATABASE_CHECKOUT_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  // PostgreSQL: checkout (pricing, commits) in a worker thread of its own, off the busy main event loop
  // (docs/decisions/0020-checkout-first.md). SQLite commits in one turn of the loop anyway.
  CHECKOUT_THREAD: boolean.default(true),
  // The storefront's pages drawn on the server, then hydrated (docs/decisions/0021-server-rendering.md).
  SERVER_RENDER: boolean.default(true),
  // `npm run dev`: the server hosts Vite's development server (pages from the source, hot reload).
  WEB_DEV_SERVER: boolean.default(false),
  // How long the shop waits on its database before answering 503 (docs/rules.md#api-answers-and-errors;
  // a hung server once held requests 35 s): to connect or get a pooled connection, for one statement, and how long a
  // transaction may sit idle holding its locks. SQLite's busy wait blocks the whole process, so
  // it is short.
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(3_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  DATABASE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(10_000).default(250),
  SEED_DEMO: boolean.default(true),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).default('data/outbox'),
  PAYMENT_PROVIDER: z.enum(['paypal', 'opayo']).default('paypal'),
  PAYPAL_MODE: z.enum(['local', 'sandbox', 'live']).optional(),
  // The payment credentials default to the local sandbox's, outside production (toConfig, below).
  PAYPAL_BUSINESS_EMAIL: z.email('must be an e-mail address').optional(),
  // PayPal's current REST integration (Orders v2) or the spec's Payments Standard form
  // (docs/rules.md#payments): PayPal takes no new Standard integrations, so new installs use checkout.
  PAYPAL_INTEGRATION: z.enum(['checkout', 'standard']).default('checkout'),
  PAYPAL_CLIENT_ID: z.string().min(1).max(200).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).max(200).optional(),
  PAYPAL_WEBHOOK_ID: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be the webhook id PayPal shows')
    .optional(),
  OPAYO_MODE: z.enum(['local', 'test', 'live']).optional(),
  // Shipping labels from Royal Mail Click & Drop (docs/back-office.md#shipping-labels): the local
  // sandbox outside production; in production off unless `live`, which needs the account's API key.
  CLICK_AND_DROP_MODE: z.enum(['off', 'local', 'live']).optional(),
  CLICK_AND_DROP_API_KEY: z.string().min(1).max(500).optional(),
  OPAYO_VENDOR: z.string().min(1).max(15).optional(),
  OPAYO_ENCRYPTION_PASSWORD: z.string().length(16, 'must be exactly 16 characters').optional(),
  // A Reporting and Admin API user of the vendor's (made in MySagePay): it reads a payment's
  // security key, which a refund through Opayo needs and the Form return does not carry. Without
  // one (outside local mode), staff refund in Opayo's portal and record it in the back office.
  OPAYO_ADMIN_USER: z.string().min(1).max(50).optional(),
  OPAYO_ADMIN_PASSWORD: z.string().min(1).max(100).optional(),
  // Behind a reverse proxy: true (one proxy in front: the client is the address it appended to
  // X-Forwarded-For), a number of proxies in a chain, or the proxies' addresses or ranges.
  // Never "believe any": the first X-Forwarded-For entry is whatever the client wrote.
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[\da-fA-F.:/]+(,[\da-fA-F.:/]+)*)$/,
      'must be true, false, a number of proxies, or addresses',
    )
    .default('false')
    .transform((value): boolean | number | string[] =>
      value === 'true' ? 1 : value === 'false' ? false : /^\d{1,2}$/.test(value) ? Number(value) : value.split(','),
    ),
  RATE_LIMIT_FACTOR: z.coerce.number().min(0.01).max(1000).default(1),
  // How long a client may take to send one whole request before it is answered 408 and cut off
  // (docs/rules.md#security): long enough for a 15 MB product photo at 2 Mbit/s, short enough
  // that a client sending a byte now and then cannot hold a socket for ever.
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // The dashboard lists sizes with this many units or fewer left.
  LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(10_000).default(3),
  SEARCH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  CATALOG_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  // How long one instance reuses a storefront page's whole answer, and a CDN may keep it (ADR 0021).
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  // How stale this instance's search index may be before a search reads the change log first (ADR 0017).
  SEARCH_INDEX_LAG_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  // The timers that sweep expired reservations, settle refunds and refresh the planner's
  // statistics. Tests turn them off and run each sweep themselves, at the moment they choose.
  BACKGROUND_JOBS: boolean.default(true),
  RESERVATION_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  // Unpaid orders holding stock at once, per e-mail address and per client address
  // (docs/rules.md#limits-on-one-client).
  UNPAID_ORDERS_PER_EMAIL: z.coerce.number().int().min(1).max(100_000).default(3),
  UNPAID_ORDERS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(10),
  UNPAID_UNITS_PER_EMAIL: z.coerce.number().int().min(1).max(1_000_000).default(20),
  UNPAID_UNITS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(50),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Readable lines for a developer, JSON lines for a log collector.
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  SHOP_NAME: z.string().min(1).max(80).default('Raag Instruments'),
  SHOP_PHONE: z.string().min(1).max(40).default('0121 496 0742'),
  SHOP_EMAIL: z.email('must be an e-mail address').default('hello@raag-instruments.example'),
  SHOP_ADDRESS: z
    .string()
    .min(1)
    .max(300)
    .default('Unit 14, Queens Square Shopping Precinct, West Bromwich, West Midlands, B70 7NJ'),
  SHOP_COMPANY_NUMBER: z.string().min(1).max(20).default('09876543'),
  // Where the shop is told of its new paid orders (one e-mail a minute at most); SHOP_EMAIL unless set.
  SHOP_ORDERS_EMAIL: z.email('must be an e-mail address').optional(),
  // The shop's VAT registration number, printed on its invoices and credit notes: GB and 9 digits
  // (12 for a branch of a group), spaces allowed.
  SHOP_VAT_NUMBER: z
    .string()
    .transform((typed) => typed.replaceAll(' ', '').toUpperCase())
    .pipe(z.string().regex(/^GB(\d{9}|\d{12})$/, 'must be a UK VAT number: GB and 9 or 12 digits'))
    .default('GB123456789'),
  SHOP_FACEBOOK_URL: httpUrl.default('https://www.facebook.com/raaginstruments'),
  SHOP_INSTAGRAM_URL: httpUrl.default('https://www.instagram.com/raaginstruments'),
  SHOP_MAP_LATITUDE: z.coerce.number().min(-90).max(90).default(52.5186),
  SHOP_MAP_LONGITUDE: z.coerce.number().min(-180).max(180).default(-1.9946),
});

/** The environment's variables, checked (with every production rule) and made into the configuration. */
const configSchema = envSchema
  .superRefine((env, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
      issue('METRICS_PORT', "must differ from PORT: metrics are never served on the shop's own port");
    }
    if ((env.OPAYO_ADMIN_USER === undefined) !== (env.OPAYO_ADMIN_PASSWORD === undefined)) {
      const missing = env.OPAYO_ADMIN_USER === undefined ? 'OPAYO_ADMIN_USER' : 'OPAYO_ADMIN_PASSWORD';
      issue(missing, 'is needed with the other OPAYO_ADMIN_ setting');
    }
    if (env.NODE_ENV !== 'production') return;
    // The production rules, all of them here.
    for (const name of ['SESSION_SECRET', 'PUBLIC_URL'] as const) {
      if (!env[name]) issue(name, 'is required in production');
    }
    if (env.WEB_DEV_SERVER) issue('WEB_DEV_SERVER', 'is for development, refused in production');
    if (env.CLICK_AND_DROP_MODE === 'local')
      issue('CLICK_AND_DROP_MODE', 'the local Click & Drop sandbox is refused in production');
    if (env.CLICK_AND_DROP_MODE === 'live' && env.CLICK_AND_DROP_API_KEY === undefined)
      issue('CLICK_AND_DROP_API_KEY', 'is required in production for CLICK_AND_DROP_MODE=live');
    if (env.PAYPAL_MODE === 'local' || env.OPAYO_MODE === 'local') {
      issue(
        env.PAYPAL_MODE === 'local' ? 'PAYPAL_MODE' : 'OPAYO_MODE',
        'the local payment sandbox is refused in production',
      );
    }
    // The chosen provider needs settings of its own: the local sandbox's would send payments nowhere.
    const checkout = env.PAYMENT_PROVIDER === 'paypal' && env.PAYPAL_INTEGRATION === 'checkout';
    const needed =
      env.PAYMENT_PROVIDER === 'opayo'
        ? (['OPAYO_VENDOR', 'OPAYO_ENCRYPTION_PASSWORD'] as const)
        : checkout
          ? (['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const)
          : (['PAYPAL_BUSINESS_EMAIL'] as const);
    const choice = `PAYMENT_PROVIDER=${env.PAYMENT_PROVIDER}${env.PAYMENT_PROVIDER === 'paypal' ? ` PAYPAL_INTEGRATION=${env.PAYPAL_INTEGRATION}` : ''}`;
    for (const name of needed) {
      if (env[name] === undefined) issue(name, `is required in production for ${choice}`);
    }
    const localValues: ReadonlyArray<readonly [keyof typeof env, string]> = [
      ...(checkout
        ? ([
            ['PAYPAL_CLIENT_ID', LOCAL_PAYPAL_CHECKOUT.clientId],
            ['PAYPAL_CLIENT_SECRET', LOCAL_PAYPAL_CHECKOUT.clientSecret],
            ['PAYPAL_WEBHOOK_ID', LOCAL_PAYPAL_CHECKOUT.webhookId],
          ] as const)
        : []),
      ['OPAYO_VENDOR', LOCAL_OPAYO_VENDOR.vendor],
      ['OPAYO_ENCRYPTION_PASSWORD', LOCAL_OPAYO_VENDOR.encryptionPassword],
      ['PAYPAL_BUSINESS_EMAIL', LOCAL_PAYPAL_BUSINESS_EMAIL],
      ['OPAYO_ADMIN_USER', LOCAL_OPAYO_ADMIN.user],
      ['OPAYO_ADMIN_PASSWORD', LOCAL_OPAYO_ADMIN.password],
    ];
    for (const [name, value] of localValues) {
      if (env[name] === value) issue(name, "is the local sandbox's, refused in production");
    }
  })
  .transform(toConfig);

/** The shop's configuration, as the schema makes it from the environment. */
export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {}

export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as it does in most shells and .env files.
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

type Environment = z.output<typeof envSchema>;

/** The configuration the code reads, from the variables as parsed and checked. */
function toConfig(env: Environment) {
  const production = env.NODE_ENV === 'production';
  const opayoMode = env.OPAYO_MODE ?? (production ? 'live' : 'local');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseCheckoutPoolSize: env.DATABASE_CHECKOUT_POOL_SIZE,
    /** PostgreSQL: commits run in the checkout thread (src/server/orders/checkout-thread/). */
    checkoutThread: env.CHECKOUT_THREAD,
    /** Storefront pages are rendered on the server (src/web/entry-server.tsx) when the build has the renderer. */
    serverRender: env.SERVER_RENDER,
    /** `npm run dev`: Vite's development server is hosted by this one (src/server/http/dev-web.ts). */
    webDevServer: env.WEB_DEV_SERVER,
    /** Database waits, in milliseconds (see DATABASE_*_TIMEOUT_MS). */
    databaseTimeouts: {
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      busyMs: env.DATABASE_BUSY_TIMEOUT_MS,
    },
    seedDemo: env.SEED_DEMO,
    sessionSecret: env.SESSION_SECRET,
    smtpUrl: env.SMTP_URL,
    mailOutboxDir: env.MAIL_OUTBOX_DIR,
    paymentProvider: env.PAYMENT_PROVIDER,
    /**
     * The providers whose calls, returns and notifications the shop answers. In production only those
     * with settings of their own: another's would run under the local sandbox's key or address, which
     * anyone can read in the source. Elsewhere every sandbox answers.
     */
    livePaymentProviders: PAYMENT_PROVIDERS.filter(
      (id) =>
        !production ||
        {
          paypal: env.PAYPAL_BUSINESS_EMAIL !== undefined,
          'paypal-checkout':
            env.PAYPAL_CLIENT_ID !== undefined &&
            env.PAYPAL_CLIENT_SECRET !== undefined &&
            env.PAYPAL_WEBHOOK_ID !== undefined,
          opayo: env.OPAYO_VENDOR !== undefined && env.OPAYO_ENCRYPTION_PASSWORD !== undefined,
        }[id],
    ),
    /** Shipping labels: where they are bought, and with which key (docs/back-office.md#shipping-labels). */
    clickAndDrop: {
      mode: env.CLICK_AND_DROP_MODE ?? (production ? 'off' : 'local'),
      // The local sandbox's key is drawn at each start, known only to the shop's own client (which
      // calls it in-process), so a stranger reaching a demo shop cannot make or cancel its labels
      // or spend its rate limit (an outside attack); set the variable to call the sandbox by hand.
      apiKey: env.CLICK_AND_DROP_API_KEY ?? `local-${randomBytes(18).toString('base64url')}`,
      baseUrl: 'https://api.parcel.royalmail.com/api/v1',
    },
    paypal: {
      mode: env.PAYPAL_MODE ?? (production ? 'live' : 'local'),
      businessEmail: env.PAYPAL_BUSINESS_EMAIL ?? LOCAL_PAYPAL_BUSINESS_EMAIL,
    },
    /** Which PayPal integration takes new payments (PAYPAL_INTEGRATION). */
    paypalIntegration: env.PAYPAL_INTEGRATION,
    /** PayPal Checkout's REST credentials and the id of the webhook PayPal signs for. */
    paypalCheckout: {
      clientId: env.PAYPAL_CLIENT_ID ?? LOCAL_PAYPAL_CHECKOUT.clientId,
      clientSecret: env.PAYPAL_CLIENT_SECRET ?? LOCAL_PAYPAL_CHECKOUT.clientSecret,
      webhookId: env.PAYPAL_WEBHOOK_ID ?? LOCAL_PAYPAL_CHECKOUT.webhookId,
    },
    opayo: {
      mode: opayoMode,
      vendor: env.OPAYO_VENDOR ?? LOCAL_OPAYO_VENDOR.vendor,
      encryptionPassword: env.OPAYO_ENCRYPTION_PASSWORD ?? LOCAL_OPAYO_VENDOR.encryptionPassword,
      /**
       * The Reporting and Admin API user refunds look payments up with; none: refunds are made in
       * Opayo's portal. The local sandbox has its own, so refunds through it work offline.
       */
      admin:
        env.OPAYO_ADMIN_USER && env.OPAYO_ADMIN_PASSWORD
          ? { user: env.OPAYO_ADMIN_USER, password: env.OPAYO_ADMIN_PASSWORD }
          : opayoMode === 'local'
            ? { user: LOCAL_OPAYO_ADMIN.user, password: LOCAL_OPAYO_ADMIN.password }
            : undefined,
    },
    reservationMinutes: env.RESERVATION_MINUTES,
    /** Scales every per-route rate limit (1 is the shop's own limits). */
    rateLimitFactor: env.RATE_LIMIT_FACTOR,
    /** How long one request may take to arrive, in milliseconds (REQUEST_TIMEOUT_SECONDS). */
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    lowStockThreshold: env.LOW_STOCK_THRESHOLD,
    /** How many unpaid orders, and units in them, may hold stock at once for one e-mail address and one client. */
    unpaidOrderLimits: {
      perEmail: env.UNPAID_ORDERS_PER_EMAIL,
      perClient: env.UNPAID_ORDERS_PER_CLIENT,
      unitsPerEmail: env.UNPAID_UNITS_PER_EMAIL,
      unitsPerClient: env.UNPAID_UNITS_PER_CLIENT,
    },
    /** Fastify's trustProxy: false, a number of proxies in front, or the proxies' addresses. */
    trustProxy: env.TRUST_PROXY,
    /** How long one instance reuses a search answer; 0 turns the cache off. */
    searchCacheSeconds: env.SEARCH_CACHE_SECONDS,
    catalogCacheSeconds: env.CATALOG_CACHE_SECONDS,
    /** How long one instance reuses a storefront page's HTML, and a CDN may keep it; 0 turns both off. */
    pageCacheSeconds: env.PAGE_CACHE_SECONDS,
    /** A search reads the change log first when this instance read it longer ago (docs/decisions/0017-in-process-search-index.md). */
    searchIndexLagMs: env.SEARCH_INDEX_LAG_MS,
    /** The sweeps on timers (reservations, refunds, planner statistics) run; tests run them themselves. */
    backgroundJobs: env.BACKGROUND_JOBS,
    logLevel: env.LOG_LEVEL as string,
    /** `pretty` (the default in development) or `json` lines. */
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'development' ? 'pretty' : 'json'),
    /** Where Prometheus scrapes GET /metrics (METRICS_PORT, METRICS_HOST); undefined: metrics off. */
    metrics: env.METRICS_PORT === undefined ? undefined : { port: env.METRICS_PORT, host: env.METRICS_HOST },
    /** The OTLP/HTTP collector traces go to (OTEL_EXPORTER_OTLP_ENDPOINT); undefined: tracing off. */
    tracing: env.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, ''), serviceName: env.OTEL_SERVICE_NAME }
      : undefined,
    shop: {
      name: env.SHOP_NAME,
      phone: env.SHOP_PHONE,
      email: env.SHOP_EMAIL,
      address: env.SHOP_ADDRESS,
      companyNumber: env.SHOP_COMPANY_NUMBER,
      facebookUrl: env.SHOP_FACEBOOK_URL,
      instagramUrl: env.SHOP_INSTAGRAM_URL,
      mapLatitude: env.SHOP_MAP_LATITUDE,
      mapLongitude: env.SHOP_MAP_LONGITUDE,
      takes: paymentMarksOf(env.PAYMENT_PROVIDER),
    } satisfies ShopIdentity,
    /** Where the shop is told of its new paid orders (docs/back-office.md#orders). */
    ordersEmail: env.SHOP_ORDERS_EMAIL ?? env.SHOP_EMAIL,
    /** The shop as its VAT invoices and credit notes name it (docs/rules.md#invoices-and-credit-notes). */
    documentIssuer: {
      name: env.SHOP_NAME,
      // SHOP_ADDRESS is one line, its parts separated by commas: a document prints one a line.
      address: env.SHOP_ADDRESS.split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
      vatNumber: env.SHOP_VAT_NUMBER,
      companyNumber: env.SHOP_COMPANY_NUMBER,
      email: env.SHOP_EMAIL,
    } satisfies DocumentIssuer,
  };
}
