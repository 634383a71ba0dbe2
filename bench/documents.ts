import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { setDocumentIssuer } from '../src/server/documents/issue-documents.ts';
import { invoiceOfPaidOrder } from '../src/server/orders/order-documents.ts';
import { createStaffService } from '../src/server/staff/staff.service.ts';
import { generateOrders } from './generate-orders.ts';
import { seedDatabase, signInBenchStaff, startBenchServer } from './harness.ts';

/**
 * Invoices and packing slips on a serving shop (npm run bench:documents): seeds a catalogue and
 * --orders orders (about one in thirteen paid and waiting to be dispatched), issues their invoices,
 * then, on the server in production mode, asks for one invoice after another and prints p50 and
 * p99, then for the packing slips of every order waiting (at least 200) while /healthz is asked
 * every 20 ms, and prints how long the batch took, /healthz's slowest answers and the server's
 * resident memory at most. Targets: an invoice p99 <= 50 ms; 200 packing slips <= 5 s with
 * /healthz within 100 ms meanwhile; resident memory <= 400 MB.
 *
 *   npm run bench:documents [-- --orders 3000 --invoices 200]
 */
const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '3000' },
    invoices: { type: 'string', default: '200' },
    port: { type: 'string', default: '3779' },
  },
});
const port = Number(values.port);
const dir = mkdtempSync(join(tmpdir(), 'shop-bench-documents-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;

await seedDatabase(databaseUrl, 2_000);
const db = openDatabase(databaseUrl);
await migrateToLatest(db);
await generateOrders(db, Number(values.orders));
await setDocumentIssuer(db.kysely, {
  name: 'Raag Instruments',
  address: ['Unit 14', 'Queens Square Shopping Precinct', 'West Bromwich', 'West Midlands', 'B70 7NJ'],
  vatNumber: 'GB123456789',
  companyNumber: '09876543',
  email: 'hello@raag-instruments.example',
});
const paid = await db.kysely
  .selectFrom('orders')
  .select('order_number')
  .where('status', '=', 'paid')
  .orderBy('id', 'desc')
  .limit(Number(values.invoices))
  .execute();
for (const order of paid) await invoiceOfPaidOrder(db.kysely, order.order_number, () => new Date());
const waiting = await db.kysely
  .selectFrom('orders')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('status', '=', 'paid')
  .where('fulfilment', '=', 'unfulfilled')
  .executeTakeFirstOrThrow();
const staff = createStaffService(db.kysely, { publicUrl: `http://localhost:${port}`, shopName: async () => 'Bench' });
const email = `bench.${Date.now()}@shop.example`;
const { setPasswordUrl } = await staff.create({ email, name: 'Bench', role: 'staff' });
await db.destroy();

const server = await startBenchServer(databaseUrl, port, { TRUST_PROXY: 'true' });
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const residentMb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};
try {
  const headers = await signInBenchStaff(port, { email, setPasswordUrl, password: 'Bench-Password-For-Staff-1' });
  const base = `http://127.0.0.1:${port}/api/admin`;
  const get = async (path: string) => {
    const started = performance.now();
    const answer = await fetch(`${base}${path}`, { headers });
    const bytes = await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${Buffer.from(bytes).toString()}`);
    return { ms: performance.now() - started, bytes: bytes.byteLength };
  };

  // The thread starts and loads PDFKit and the font with the first: not counted.
  for (const order of paid.slice(0, 5)) await get(`/orders/${order.order_number}/invoice`);
  const invoiceTimes: number[] = [];
  for (const order of paid) invoiceTimes.push((await get(`/orders/${order.order_number}/invoice`)).ms);
  invoiceTimes.sort((a, b) => a - b);

  let peakMb = residentMb();
  const health: number[] = [];
  let batchDone = false;
  const watch = (async () => {
    while (!batchDone) {
      const started = performance.now();
      await fetch(`http://127.0.0.1:${port}/healthz`);
      health.push(performance.now() - started);
      peakMb = Math.max(peakMb, residentMb());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const batch = await get('/packing-slips');
  batchDone = true;
  await watch;
  health.sort((a, b) => a - b);

  console.log(`\nDocuments: ${paid.length} invoices, then packing slips for ${waiting.n} orders waiting\n`);
  console.log('| measure | figure |');
  console.log('| --- | --- |');
  console.log(
    `| one invoice, p50 / p99 | ${percentile(invoiceTimes, 50).toFixed(1)} / ${percentile(invoiceTimes, 99).toFixed(1)} ms |`,
  );
  console.log(
    `| ${waiting.n} packing slips, one PDF | ${(batch.ms / 1000).toFixed(2)} s, ${(batch.bytes / 1024).toFixed(0)} kB |`,
  );
  console.log(
    `| /healthz meanwhile, p99 / slowest (${health.length} asked) | ${percentile(health, 99).toFixed(1)} / ${(health.at(-1) ?? NaN).toFixed(1)} ms |`,
  );
  console.log(`| resident memory, most | ${peakMb.toFixed(0)} MB |`);
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
