import { TEST_SESSION_SECRET } from './csrf.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on now, for an instance started by a test. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ShopProcess {
  url: string;
  port: number;
  /** Milliseconds from spawn to the first healthy answer. */
  startedInMs: number;
  /** Everything the process wrote, for a failing test's message. */
  output(): string;
  /** SIGTERM, then wait for the process to end. */
  stop(): Promise<void>;
  /** SIGKILL: the process ends at once, whatever it was doing. */
  kill(): Promise<void>;
  /** Sends a signal without waiting. */
  signal(name: NodeJS.Signals): void;
  /** Calls back with the exit code once the process has ended. */
  onExit(listener: (code: number | null) => void): void;
}

/**
 * For suites whose many shoppers all come from this one address with one e-mail address: the
 * per-client limits (rate limits, unpaid-order caps) are lifted, so they are not what answers.
 */
export const manyShoppersOneAddress = {
  RATE_LIMIT_FACTOR: '1000',
  UNPAID_ORDERS_PER_EMAIL: '100000',
  UNPAID_ORDERS_PER_CLIENT: '100000',
  UNPAID_UNITS_PER_EMAIL: '1000000',
  UNPAID_UNITS_PER_CLIENT: '1000000',
} as const;

/**
 * Starts the shop as production starts it (`node src/server/main.ts`) in its own process, and
 * resolves once GET /healthz answers.
 */
export async function startShop(env: Record<string, string>, port?: number): Promise<ShopProcess> {
  const chosenPort = port ?? (await freePort());
  const started = performance.now();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(chosenPort),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // The tests read the log lines as JSON.
      LOG_FORMAT: 'json',
      // The tests read stock back through the product API: no per-instance caches, unless asked.
      CATALOG_CACHE_SECONDS: '0',
      SEARCH_CACHE_SECONDS: '0',
      // The test client signs its CSRF tokens with it (test/helpers/csrf.ts).
      SESSION_SECRET: TEST_SESSION_SECRET,
      // The process suites pay through PayPal Standard's IPN.
      PAYPAL_INTEGRATION: 'standard',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${chosenPort}`;
  await waitUntilHealthy(url, child, () => output);
  const startedInMs = performance.now() - started;
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    port: chosenPort,
    startedInMs,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await ended;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await ended;
    },
    signal(name) {
      child.kill(name);
    },
    onExit(listener) {
      if (child.exitCode !== null) listener(child.exitCode);
      else child.once('exit', (code) => listener(code));
    },
  };
}

async function waitUntilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the shop exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`the shop did not become healthy:\n${output()}`);
}
