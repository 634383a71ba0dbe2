import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api-client.ts';
import { checkoutFixtures, commitBody, guest } from '../helpers/checkout-fixtures.ts';
import { startShop, type ShopProcess } from '../helpers/shop-process.ts';
import { createEmptyDatabase, testDialect, type TestDatabase } from '../helpers/test-db.ts';
import { openDatabase } from '../../src/server/db/database.ts';

/**
 * A hung PostgreSQL once held /readyz over 40 s and requests 35 s; an outside SQLite write lock
 * blocked the event loop 7 s; an unreachable PostgreSQL at start gave a stack trace. Now the shop
 * answers 503 quickly when its database does not, /readyz within 2 s, and at start it says in one
 * line that DATABASE_URL cannot be reached (docs/rules.md#api-answers-and-errors).
 */

/** A TCP server that accepts connections and never says a word: a hung database server. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs the shop until it exits (or `limitMs` passes: then it is killed and reported as such). */
function runShopToExit(env: Record<string, string>, limitMs: number) {
  const started = performance.now();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number; killed: boolean }>(
    (resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: performance.now() - started, killed: signal === 'SIGKILL' });
      });
    },
  );
}

describe('PostgreSQL unreachable at start', () => {
  it('says so in one line naming DATABASE_URL and exits 1, when nothing listens', async () => {
    const nothing = await silentServer();
    await nothing.close();
    const run = await runShopToExit({ DATABASE_URL: `postgres://shop:secret@127.0.0.1:${nothing.port}/shop` }, 20_000);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toContain('DATABASE_URL');
    expect(run.stderr).not.toContain('secret');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('gives up within the connect timeout when the server accepts and never answers', async () => {
    const hung = await silentServer();
    try {
      const run = await runShopToExit(
        { DATABASE_URL: `postgres://shop@127.0.0.1:${hung.port}/shop`, DATABASE_CONNECT_TIMEOUT_MS: '1000' },
        20_000,
      );
      expect(run.killed, 'the shop was still waiting after 20 s').toBe(false);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('DATABASE_URL');
    } finally {
      await hung.close();
    }
  }, 30_000);
});

/** Times `count` GET /healthz calls one after another while `during` runs; the slowest in ms. */
/**
 * How many times /healthz answered 200 while `during` was still unsettled: the process kept serving
 * while its database did not answer. (How long each answer took is not asserted: a busy machine makes
 * timings lie; what waits and for how long is set by the timeouts the shop is started with.)
 */
async function healthzAnswersWhile(shop: ShopProcess, during: Promise<unknown>): Promise<number> {
  let answered = 0;
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    const answer = await fetch(`${shop.url}/healthz`);
    if (!done && answer.status === 200) answered++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return answered;
}

describe('SQLite locked by another process', () => {
  let dir: string;
  let shop: ShopProcess;
  let stockId: number;
  let locker: SqliteDatabase.Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shop-locked-'));
    const url = `sqlite:${join(dir, 'shop.db')}`;
    shop = await startShop({ DATABASE_URL: url });
    const db = openDatabase(url);
    stockId = (await (await checkoutFixtures(db)).product(900, 100)).stockId;
    await db.destroy();
    locker = new SqliteDatabase(join(dir, 'shop.db'));
  });
  afterAll(async () => {
    if (locker.inTransaction) locker.exec('rollback');
    locker.close();
    await shop.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers writes 503 by its busy timeout, keeps serving /healthz and reads, and recovers', async () => {
    locker.exec('begin exclusive');
    // The lock is held until the rollback below: a write that waited for it would never answer.
    const writes = Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(shop.url, '/api/basket', {
          body: commitBody([{ productStockId: stockId, requestedQty: 1 }], { guest: { ...guest, firstname: `l${i}` } }),
        }),
      ),
    );
    const healthy = await healthzAnswersWhile(shop, writes);
    for (const answer of await writes) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body).toEqual({ error: { code: 'DATABASE_UNAVAILABLE', message: 'Please try again shortly.' } });
    }
    // /healthz kept answering while the writes waited.
    expect(healthy).toBeGreaterThan(0);
    expect((await call(shop.url, '/api/brands')).status).toBe(200);
    locker.exec('rollback');
    const after = await call(shop.url, '/api/basket', {
      body: commitBody([{ productStockId: stockId, requestedQty: 1 }]),
    });
    expect(after.status, after.text).toBe(200);
  });
});

/**
 * A TCP proxy to PostgreSQL that can be frozen: it then passes nothing either way and accepts new
 * connections without answering, as a hung database server does.
 */
async function freezableProxy(target: URL) {
  const [host, port] = [target.hostname, Number(target.port || 5432)];
  let frozen = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    if (frozen) return;
    const upstream = connect(port, host);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => frozen || client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    freeze: (value: boolean) => (frozen = value),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// The hung server needs a real PostgreSQL behind the proxy: run with TEST_DATABASE_URL.
if (testDialect === 'postgres') {
  describe('PostgreSQL hanging while the shop serves', () => {
    let database: TestDatabase;
    let proxy: Awaited<ReturnType<typeof freezableProxy>>;
    let shop: ShopProcess;

    beforeAll(async () => {
      database = await createEmptyDatabase();
      const url = new URL(database.processUrl);
      proxy = await freezableProxy(url);
      url.host = `127.0.0.1:${proxy.port}`;
      shop = await startShop({
        DATABASE_URL: url.toString(),
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      });
    });
    afterAll(async () => {
      await shop.kill();
      await proxy.close();
      await database.drop();
    });

    it('answers /readyz 503 and requests 503 by its timeouts, keeps /healthz, and recovers', async () => {
      expect((await call(shop.url, '/readyz')).status).toBe(200);
      proxy.freeze(true);
      // The database stays frozen until freeze(false) below: an answer that waited for it would never come.
      const ready = await call(shop.url, '/readyz');
      expect(ready.status).toBe(503);

      const requests = Promise.all(Array.from({ length: 5 }, () => call(shop.url, '/api/brands')));
      const healthy = await healthzAnswersWhile(shop, requests);
      for (const answer of await requests) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.body).toEqual({ error: { code: 'DATABASE_UNAVAILABLE', message: 'Please try again shortly.' } });
      }
      expect(healthy).toBeGreaterThan(0);

      proxy.freeze(false);
      await expect.poll(async () => (await call(shop.url, '/readyz')).status, { timeout: 10_000 }).toBe(200);
      expect((await call(shop.url, '/api/brands')).status).toBe(200);
    }, 30_000);
  });
}
