import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-process.ts';
import { startShop } from '../helpers/shop-process.ts';

/**
 * A port another program holds stops the shop with one line (docs/rules.md#operations) that says so
 * and what to do, not a stack trace.
 */
describe('starting the shop on a port that is taken', () => {
  let blocker: Server;
  let port: number;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shop-start-'));
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints one line naming the port and PORT, and exits 1', async () => {
    const result = await runScript('src/server/main.ts', {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'shop.db')}`,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      `Port ${port} on 127.0.0.1 is in use by another program: stop it, or set PORT to another port.`,
    ]);
  });
});

describe('the log in development', () => {
  it('is readable lines rather than JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shop-log-'));
    const shop = await startShop({
      DATABASE_URL: `sqlite:${join(dir, 'shop.db')}`,
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
    });
    try {
      await fetch(`${shop.url}/api/brands`);
      const deadline = Date.now() + 5000;
      while (!shop.output().includes('is open at') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const lines = shop.output().trim().split('\n');
      expect(lines.some((line) => /\d\d:\d\d:\d\d.*INFO.*is open at http/.test(line))).toBe(true);
      expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    } finally {
      await shop.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
