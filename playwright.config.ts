import { defineConfig, devices } from '@playwright/test';
import { databaseFor, outboxFor } from './test/e2e/outbox-path.ts';

/**
 * Browser tests drive the built app (`npm run build`) served by the real server on a fresh SQLite
 * database with the demo catalogue, in Debian's Chromium: never a downloaded browser.
 */
const port = Number(process.env.E2E_PORT ?? 3555);

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: true,
  workers: 2,
  // A give-up bound, not a speed target: on a busy shared 2-core machine a walk through sign-up,
  // axe checks and checkout took more than the default 30 s while nothing was wrong.
  timeout: 60_000,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: 'node test/e2e/serve.ts',
      url: `http://localhost:${port}/api/product-types`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        E2E_PORT: String(port),
        PAYMENT_PROVIDER: 'paypal',
        E2E_OUTBOX: outboxFor(port),
        E2E_DATABASE: databaseFor(port),
      },
    },
    {
      // The same shop taking cards through Opayo, for the card payment tests.
      command: 'node test/e2e/serve.ts',
      url: `http://localhost:${port + 1}/api/product-types`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        E2E_PORT: String(port + 1),
        PAYMENT_PROVIDER: 'opayo',
        E2E_OUTBOX: outboxFor(port + 1),
        E2E_DATABASE: databaseFor(port + 1),
      },
    },
    {
      // The same shop taking PayPal through PayPal Checkout (Orders v2), for paypal-checkout.spec.ts.
      command: 'node test/e2e/serve.ts',
      url: `http://localhost:${port + 100}/api/product-types`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        E2E_PORT: String(port + 100),
        PAYMENT_PROVIDER: 'paypal',
        PAYPAL_INTEGRATION: 'checkout',
        E2E_OUTBOX: outboxFor(port + 100),
        E2E_DATABASE: databaseFor(port + 100),
      },
    },
  ],
});
