/**
 * How long the shop takes to serve again after it is killed (SIGKILL) and started again, on SQLite
 * and on PostgreSQL: the figure the crash suite used to assert (test/crash/kill-and-restart.test.ts
 * now checks only what a crash must not lose; time is measured here, on a quiet machine).
 *
 *   node bench/restart.ts [--restarts 8] [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startShop } from '../test/helpers/shop-process.ts';
import { freshPostgresSchema } from './harness.ts';

const { values } = parseArgs({
  options: {
    restarts: { type: 'string', default: '8' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const restarts = Number(values.restarts);

async function measure(label: string, databaseUrl: string): Promise<void> {
  const env = { DATABASE_URL: databaseUrl };
  let shop = await startShop(env);
  const first = shop.startedInMs;
  const times: number[] = [];
  for (let i = 0; i < restarts; i++) {
    await shop.kill();
    shop = await startShop(env, shop.port);
    times.push(shop.startedInMs);
  }
  await shop.stop();
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${label}: first start ${first.toFixed(0)} ms (migrations); after SIGKILL, ${restarts} restarts: ` +
      `median ${median.toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms (spawn to first /healthz)`,
  );
}

const folder = mkdtempSync(join(tmpdir(), 'bench-restart-'));
try {
  await measure('SQLite', `sqlite:${join(folder, 'shop.db')}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
const schema = await freshPostgresSchema(values.postgres);
try {
  await measure('PostgreSQL', schema.url);
} finally {
  await schema.drop();
}
