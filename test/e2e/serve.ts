import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { testEnvironment } from '../helpers/test-environment.ts';

/** Starts the real server for the browser tests on a fresh database and outbox of its own. */
const dir = mkdtempSync(join(tmpdir(), 'shop-e2e-'));
// Each run starts with an empty outbox and a new database.
if (process.env.E2E_OUTBOX) rmSync(process.env.E2E_OUTBOX, { recursive: true, force: true });
const database = process.env.E2E_DATABASE ?? join(dir, 'shop.db');
if (process.env.E2E_DATABASE) rmSync(dirname(database), { recursive: true, force: true });
const child = spawn(process.execPath, ['src/server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ...testEnvironment,
    // The browser tests' shoppers all come from 127.0.0.1; the API tests check the real limits.
    RATE_LIMIT_FACTOR: '50',
    LOG_LEVEL: 'warn',
    PORT: process.env.E2E_PORT ?? '3555',
    DATABASE_URL: `sqlite:${database}`,
    // The checkout and admin specs pay through PayPal Standard's form; paypal-checkout.spec.ts has a server of its own.
    PAYPAL_INTEGRATION: process.env.PAYPAL_INTEGRATION ?? 'standard',
    MAIL_OUTBOX_DIR: process.env.E2E_OUTBOX ?? join(dir, 'outbox'),
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
