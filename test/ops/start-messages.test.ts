import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-process.ts';

/**
 * Issue 17, item 6 (the newcomer loop): a port another program holds stops the shop with one line
 * that says so and what to do, not a stack trace.
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
