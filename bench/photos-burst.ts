import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { openDatabase } from '../src/server/db/database.ts';
import { createStaffService } from '../src/server/staff/staff.service.ts';
import { seedDatabase, signInBenchStaff, startBenchServer } from './harness.ts';

/**
 * A burst of photo uploads (npm run bench:photos; issue 31, item 4): one member of staff's session
 * sends --uploads uploads at once, each a PNG of about 14 MB (noise, so it does not compress), each
 * to a product of its own, to the shop in production mode on SQLite. Prints the answers, and the
 * server's resident memory before, at its peak during the burst (sampled every 100 ms) and
 * --settle seconds after the last answer (target: under 400 MB throughout). Waiting uploads
 * used to be held in memory, whole: 24 took the server to 1.1 GB and left it at 830 MB.
 *
 *   npm run bench:photos -- [--uploads 24] [--settle 10]
 */
const { values } = parseArgs({
  options: {
    uploads: { type: 'string', default: '24' },
    settle: { type: 'string', default: '10' },
    port: { type: 'string', default: String(20_000 + Math.floor(Math.random() * 20_000)) },
  },
});
const uploads = Number(values.uploads);
const port = Number(values.port);

/** A PNG of noise just under 14 MB: 2,700 × 1,800 RGB, stored without compression. */
async function bigPng(): Promise<Buffer> {
  const [width, height] = [2700, 1800];
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

function multipartBody(file: Buffer, filename: string): { body: Buffer; type: string } {
  const boundary = `----bench${Date.now().toString(36)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-bench-photos-'));
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  await seedDatabase(databaseUrl, Math.max(50, uploads));
  const db = openDatabase(databaseUrl);
  const products = await db.kysely.selectFrom('products').select('id').orderBy('id').limit(uploads).execute();
  const email = `bench.photos.${Date.now()}@shop.example`;
  const staff = createStaffService(db.kysely, { publicUrl: `http://localhost:${port}`, shopName: async () => 'Bench' });
  const { setPasswordUrl } = await staff.create({ email, name: 'Bench staff', role: 'staff' });
  await db.destroy();
  const png = await bigPng();

  const server = await startBenchServer(databaseUrl, port, { TRUST_PROXY: 'true' });
  try {
    const base = `http://127.0.0.1:${port}/api/admin`;
    // Production mode, behind a proxy that reports HTTPS (signInBenchStaff's headers say so).
    const headers = await signInBenchStaff(port, { email, setPasswordUrl, password: 'Bench-Password-For-Staff-1' });

    const rss = async () =>
      ((await (await fetch(`http://127.0.0.1:${port}/bench/memory`)).json()) as { rss: number }).rss / 1024 / 1024;
    const before = await rss();
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(
          peak,
          await rss().catch((error: unknown) => {
            console.error('memory sample failed', error);
            return 0;
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const started = performance.now();
    const statuses = await Promise.all(
      products.map(async ({ id }, n) => {
        const { body, type } = multipartBody(png, `burst-${n}.png`);
        const answer = await fetch(`${base}/products/${id}/photos`, {
          method: 'POST',
          headers: { ...headers, 'content-type': type },
          body,
        }).catch(() => undefined);
        // Refused before its file was read (429), the answer can reach the client only after its
        // body was cut off mid-send: counted as "refused, connection closed".
        if (!answer) return 'closed early';
        await answer.arrayBuffer();
        return String(answer.status);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, Number(values.settle) * 1000));
    sampling = false;
    await sampler;
    const settled = await rss();
    const memory = (await (await fetch(`http://127.0.0.1:${port}/bench/memory`)).json()) as Record<string, number>;
    const mb = (key: string) => `${((memory[key] ?? 0) / 1024 / 1024).toFixed(0)} MB`;
    console.log(`settled: V8 heap ${mb('heapTotal')}, buffers ${mb('arrayBuffers')}, other native ${mb('external')}`);

    const counts = new Map<string, number>();
    for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
    console.log(
      `\n${uploads} uploads at once of a ${(png.length / 1024 / 1024).toFixed(1)} MB PNG, one session, SQLite`,
    );
    console.log('| answers | seconds | RSS before | RSS peak | RSS settled |\n|---|---|---|---|---|');
    console.log(
      `| ${[...counts].map(([status, count]) => `${count} × ${status}`).join(', ')} | ${seconds.toFixed(1)} | ${before.toFixed(0)} MB | ${peak.toFixed(0)} MB | ${settled.toFixed(0)} MB (${values.settle} s after) |`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

await run();
