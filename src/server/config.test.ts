import { describe, expect, it } from 'vitest';
import { LOCAL_OPAYO_ADMIN, loadConfig } from './config.ts';

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe('sqlite:data/shop.db');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.paymentProvider).toBe('paypal');
    expect(config.paypal.mode).toBe('local');
    expect(config.shop.name).toBeTruthy();
  });

  it("has no defaults of its own for tests: NODE_ENV=test gets a serving shop's, and tests set theirs", () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.searchCacheSeconds).toBe(10);
    expect(config.catalogCacheSeconds).toBe(10);
    expect(config.pageCacheSeconds).toBe(5);
    expect(config.searchIndexLagMs).toBe(1_000);
    expect(config.logLevel).toBe('info');
    expect(config.unpaidOrderLimits).toEqual({ perEmail: 3, perClient: 10, unitsPerEmail: 20, unitsPerClient: 50 });
    expect(config.backgroundJobs).toBe(true);
    const quiet = loadConfig({ BACKGROUND_JOBS: 'false' });
    expect(quiet.backgroundJobs).toBe(false);
  });

  it('names every production rule broken at once, the payment settings with the rest', () => {
    const refusal = (() => {
      try {
        loadConfig({ NODE_ENV: 'production', PAYPAL_INTEGRATION: 'checkout', OPAYO_VENDOR: 'raaglocal' });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    for (const line of [
      'SESSION_SECRET is required in production',
      'PUBLIC_URL is required in production',
      'PAYPAL_CLIENT_ID is required in production for PAYMENT_PROVIDER=paypal PAYPAL_INTEGRATION=checkout',
      'PAYPAL_WEBHOOK_ID is required in production for PAYMENT_PROVIDER=paypal PAYPAL_INTEGRATION=checkout',
      "OPAYO_VENDOR is the local sandbox's, refused in production",
    ]) {
      expect(refusal).toContain(line);
    }
  });

  it('reads the variables it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://shop@db/shop',
      PUBLIC_URL: 'https://shop.example/',
      PAYMENT_PROVIDER: 'opayo',
      SHOP_NAME: 'Test Shop',
    });
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBe('postgres://shop@db/shop');
    expect(config.publicUrl).toBe('https://shop.example');
    expect(config.paymentProvider).toBe('opayo');
    expect(config.shop.name).toBe('Test Shop');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'not a url'],
    ['PAYMENT_PROVIDER', 'stripe'],
    ['SEED_DEMO', 'maybe'],
    ['SMTP_URL', 'http://mail'],
    ['OPAYO_ENCRYPTION_PASSWORD', 'short'],
    ['SESSION_SECRET', 'too-short'],
    ['TRUST_PROXY', 'everyone'],
    ['DATABASE_POOL_SIZE', '0'],
    ['CATALOG_CACHE_SECONDS', '-1'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '0'],
    ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', '-5'],
    ['DATABASE_BUSY_TIMEOUT_MS', '60000'],
    ['METRICS_PORT', 'nine-four-six-four'],
    ['METRICS_PORT', '70000'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n\\s+${name} `));
  });

  it('limits every wait on the database by default, each settable', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({
      connectMs: 3_000,
      statementMs: 5_000,
      idleInTransactionMs: 10_000,
      busyMs: 250,
    });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '1500' }).databaseTimeouts.statementMs).toBe(1_500);
  });

  it('serves metrics only when given a port, on the loopback address unless told, never on the shop port', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      port: 9464,
      host: '10.0.0.5',
    });
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /^Invalid configuration:\n\s+METRICS_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
  });

  it('traces only when given a collector', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'shop',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
  });

  it('refuses production without a session secret, public URL and real payment settings, and never a local sandbox', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required in production/);
    const secrets = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://shop.example',
      PAYPAL_INTEGRATION: 'standard',
    };
    expect(() => loadConfig(secrets)).toThrow(/PAYPAL_BUSINESS_EMAIL is required in production/);
    const paypal = { ...secrets, PAYPAL_BUSINESS_EMAIL: 'payments@shop.example' };
    expect(loadConfig(paypal).paypal).toEqual({ mode: 'live', businessEmail: 'payments@shop.example' });
    expect(() => loadConfig({ ...paypal, PAYPAL_MODE: 'local' })).toThrow(/PAYPAL_MODE the local payment sandbox/);
    // Labels: off unless live, which needs the account's own key; the sandbox is refused.
    expect(loadConfig(paypal).clickAndDrop.mode).toBe('off');
    expect(() => loadConfig({ ...paypal, CLICK_AND_DROP_MODE: 'local' })).toThrow(
      /CLICK_AND_DROP_MODE the local Click & Drop sandbox is refused in production/,
    );
    expect(() => loadConfig({ ...paypal, CLICK_AND_DROP_MODE: 'live' })).toThrow(
      /CLICK_AND_DROP_API_KEY is required in production for CLICK_AND_DROP_MODE=live/,
    );
    expect(
      loadConfig({ ...paypal, CLICK_AND_DROP_MODE: 'live', CLICK_AND_DROP_API_KEY: 'rm-key-1' }).clickAndDrop,
    ).toMatchObject({ mode: 'live', apiKey: 'rm-key-1', baseUrl: 'https://api.parcel.royalmail.com/api/v1' });
    const opayo = { ...secrets, PAYMENT_PROVIDER: 'opayo' };
    expect(() => loadConfig(opayo)).toThrow(/OPAYO_VENDOR is required in production/);
    expect(() => loadConfig({ ...opayo, OPAYO_VENDOR: 'raagshop' })).toThrow(/OPAYO_ENCRYPTION_PASSWORD is required/);
    expect(
      loadConfig({ ...opayo, OPAYO_VENDOR: 'raagshop', OPAYO_ENCRYPTION_PASSWORD: 'Abcdefgh12345678' }).opayo.mode,
    ).toBe('live');
  });

  it('refuses to host Vite’s development server in production', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://shop.example',
      PAYPAL_INTEGRATION: 'standard',
      PAYPAL_BUSINESS_EMAIL: 'payments@shop.example',
    };
    expect(loadConfig(production).webDevServer).toBe(false);
    expect(() => loadConfig({ ...production, WEB_DEV_SERVER: 'true' })).toThrow(
      /WEB_DEV_SERVER is for development, refused in production/,
    );
    expect(loadConfig({ WEB_DEV_SERVER: 'true' }).webDevServer).toBe(true);
  });

  it('refuses the local sandboxes’ Opayo key and PayPal address in production, and speaks only to providers it has settings for', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://shop.example' };
    const standard = { ...production, PAYPAL_INTEGRATION: 'standard', PAYPAL_BUSINESS_EMAIL: 'payments@shop.example' };
    const opayo = { OPAYO_VENDOR: 'raagshop', OPAYO_ENCRYPTION_PASSWORD: 'Abcdefgh12345678' };
    expect(() => loadConfig({ ...standard, ...opayo, OPAYO_ENCRYPTION_PASSWORD: 'LocalSandboxKey1' })).toThrow(
      /OPAYO_ENCRYPTION_PASSWORD is the local sandbox's, refused in production/,
    );
    expect(() => loadConfig({ ...standard, ...opayo, OPAYO_VENDOR: 'raaglocal' })).toThrow(
      /OPAYO_VENDOR is the local sandbox's, refused in production/,
    );
    expect(() => loadConfig({ ...standard, PAYPAL_BUSINESS_EMAIL: 'payments@raag-instruments.example' })).toThrow(
      /PAYPAL_BUSINESS_EMAIL is the local sandbox's, refused in production/,
    );

    expect(loadConfig(standard).livePaymentProviders).toEqual(['paypal']);
    expect(loadConfig({ ...standard, ...opayo }).livePaymentProviders).toEqual(['paypal', 'opayo']);
    const checkout = {
      ...production,
      PAYPAL_CLIENT_ID: 'real-id',
      PAYPAL_CLIENT_SECRET: 'real-secret',
      PAYPAL_WEBHOOK_ID: 'WH-1',
    };
    expect(loadConfig(checkout).livePaymentProviders).toEqual(['paypal-checkout']);
    expect(loadConfig({ ...checkout, PAYPAL_BUSINESS_EMAIL: 'payments@shop.example' }).livePaymentProviders).toEqual([
      'paypal',
      'paypal-checkout',
    ]);
    // Outside production every sandbox answers, whichever provider starts new payments.
    expect(loadConfig({}).livePaymentProviders).toEqual(['paypal', 'paypal-checkout', 'opayo']);
  });

  it('takes PayPal Checkout by default, and refuses it in production without its own credentials or with local ones', () => {
    expect(loadConfig({}).paypalIntegration).toBe('checkout');
    expect(loadConfig({ PAYPAL_INTEGRATION: 'standard' }).paypalIntegration).toBe('standard');
    expect(() => loadConfig({ PAYPAL_INTEGRATION: 'rest' })).toThrow(/PAYPAL_INTEGRATION/);
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://shop.example' };
    expect(() => loadConfig(production)).toThrow(/PAYPAL_CLIENT_ID is required in production/);
    const real = { PAYPAL_CLIENT_ID: 'AbC123', PAYPAL_CLIENT_SECRET: 'EfG456', PAYPAL_WEBHOOK_ID: '1JE4291016473214C' };
    expect(loadConfig({ ...production, ...real }).paypalCheckout).toEqual({
      clientId: 'AbC123',
      clientSecret: 'EfG456',
      webhookId: '1JE4291016473214C',
    });
    expect(() => loadConfig({ ...production, ...real, PAYPAL_CLIENT_SECRET: 'local-sandbox-secret' })).toThrow(
      /PAYPAL_CLIENT_SECRET is the local sandbox's, refused in production/,
    );
    expect(() => loadConfig({ ...production, ...real, PAYPAL_MODE: 'local' })).toThrow(
      /PAYPAL_MODE the local payment sandbox/,
    );
  });

  it('refunds through Opayo with a Reporting API user: the local sandbox’s by default, never in production', () => {
    expect(loadConfig({}).opayo.admin).toEqual({ user: LOCAL_OPAYO_ADMIN.user, password: LOCAL_OPAYO_ADMIN.password });
    // Opayo's own test or live service: none unless given, and staff refund in Opayo's portal.
    expect(loadConfig({ OPAYO_MODE: 'test' }).opayo.admin).toBeUndefined();
    const real = { OPAYO_ADMIN_USER: 'raag-reports', OPAYO_ADMIN_PASSWORD: 'Reports-Password-9' };
    expect(loadConfig({ OPAYO_MODE: 'test', ...real }).opayo.admin).toEqual({
      user: 'raag-reports',
      password: 'Reports-Password-9',
    });
    expect(() => loadConfig({ OPAYO_ADMIN_USER: 'raag-reports' })).toThrow(
      /OPAYO_ADMIN_PASSWORD is needed with the other OPAYO_ADMIN_ setting/,
    );
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://shop.example',
      PAYMENT_PROVIDER: 'opayo',
      OPAYO_VENDOR: 'raagshop',
      OPAYO_ENCRYPTION_PASSWORD: 'Abcdefgh12345678',
    };
    expect(loadConfig(production).opayo.admin).toBeUndefined();
    expect(loadConfig({ ...production, ...real }).opayo.admin?.user).toBe('raag-reports');
    expect(() => loadConfig({ ...production, ...real, OPAYO_ADMIN_PASSWORD: LOCAL_OPAYO_ADMIN.password })).toThrow(
      /OPAYO_ADMIN_PASSWORD is the local sandbox's, refused in production/,
    );
    expect(() => loadConfig({ ...production, ...real, OPAYO_ADMIN_USER: LOCAL_OPAYO_ADMIN.user })).toThrow(
      /OPAYO_ADMIN_USER is the local sandbox's, refused in production/,
    );
  });
});
