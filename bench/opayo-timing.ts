import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/demo-catalogue.ts';
import { encryptCrypt } from '../src/server/payments/opayo-crypt.ts';
import { testEnvironment } from '../test/helpers/test-environment.ts';

/**
 * Timing of the Opayo return for a Crypt whose padding is right against one whose padding is not
 * (ADR 0008). An outside review measured the right padding answered 12-15 µs sooner, which is a
 * (slow) padding oracle. This drives the return in-process, without network noise, so it sees far
 * smaller differences than an attacker could, and prints the median difference and a sign-test z
 * (|z| well above the control's means the two kinds can be told apart by time).
 *
 *   node bench/opayo-timing.ts --samples 5000
 */
const { values } = parseArgs({ options: { samples: { type: 'string', default: '5000' } } });
const samples = Number(values.samples);

const dir = mkdtempSync(join(tmpdir(), 'shop-opayo-timing-'));
const config = loadConfig({
  // Quiet, no caches or timers, no unpaid-order limits in the way of thousands of orders.
  ...testEnvironment,
  PAYMENT_PROVIDER: 'opayo',
  RATE_LIMIT_FACTOR: '1000',
  MAIL_OUTBOX_DIR: join(dir, 'outbox'),
  OPAYO_ENCRYPTION_PASSWORD: 'BenchTimingKey01',
});
const db = openDatabase(`sqlite:${join(dir, 'shop.db')}`);
await migrateToLatest(db);
await seedDemoCatalogue(db);
const app = await buildApp({ config, db });
await app.ready();

// Crypts as the shop makes them, each different: the last two blocks of one decrypt to noise and
// then a right padding; the same last block after a random block almost always to a wrong padding.
const madeCrypt = () =>
  Buffer.from(
    encryptCrypt(
      `VendorTxCode=RAAG-1-${randomBytes(6).toString('hex')}&Amount=1.00&${'x'.repeat(40)}`,
      config.opayo.encryptionPassword,
    ).slice(1),
    'hex',
  );
const kinds = {
  'right padding': () => madeCrypt().subarray(-32).toString('hex').toUpperCase(),
  'wrong padding': () =>
    Buffer.concat([randomBytes(16), madeCrypt().subarray(-16)])
      .toString('hex')
      .toUpperCase(),
};

async function time(hex: string): Promise<number> {
  const started = process.hrtime.bigint();
  await app.inject({
    method: 'GET',
    url: `/api/payments/opayo/return?crypt=@${hex}`,
    headers: { cookie: 'XSRF-TOKEN=bench' },
    remoteAddress: '10.0.0.1',
  });
  return Number(process.hrtime.bigint() - started) / 1000;
}

/**
 * Paired measurements, each round in a random order, so that drift (the JIT, the collector, the
 * rate-limit table) falls on both sides alike: a right-padding Crypt against a wrong one, and, as a
 * control, a wrong one against another wrong one. A sign test on the pairs: z = (wins - n/2) / sqrt(n/4).
 */
const pairs = { test: [] as number[], control: [] as number[] };
for (let i = 0; i < 1000; i++) for (const make of Object.values(kinds)) await time(make());
for (let i = 0; i < samples; i++) {
  const round = [
    ['right', kinds['right padding']],
    ['wrong', kinds['wrong padding']],
    ['other', kinds['wrong padding']],
  ] as const;
  const order = [...round].sort(() => Math.random() - 0.5);
  const took: Record<string, number> = {};
  for (const [name, make] of order) took[name] = await time(make());
  pairs.test.push(took.right! - took.wrong!);
  pairs.control.push(took.other! - took.wrong!);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const signZ = (differences: number[]) => {
  const decided = differences.filter((d) => d !== 0);
  const faster = decided.filter((d) => d < 0).length;
  return (faster - decided.length / 2) / Math.sqrt(decided.length / 4);
};
console.log(`Opayo return, ${samples} rounds, in-process; differences in µs (negative: the first is faster):`);
console.log(
  `  right - wrong padding: median ${median(pairs.test).toFixed(2)}, sign-test z ${signZ(pairs.test).toFixed(2)}`,
);
console.log(
  `  wrong - wrong (control): median ${median(pairs.control).toFixed(2)}, sign-test z ${signZ(pairs.control).toFixed(2)}`,
);
await app.close();
await db.destroy();
rmSync(dir, { recursive: true, force: true });
