import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { productCsvHeader, type ProductImportSummary } from '../src/contract/admin/products-csv.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { createStaffService } from '../src/server/staff/staff.service.ts';
import { typeChainNames } from '../src/server/catalog/type-tree.ts';
import { freshPostgresSchema, seedDatabase, signInBenchStaff, startBenchServer } from './harness.ts';

/**
 * The products CSV at 10,000 rows (npm run bench:products-csv; under 30 s: docs/back-office.md#csv-import-and-export).
 * Writes a file of --rows rows (two sizes a product) for a seeded shop, then, through the running
 * server as its owner: previews and applies it (every product new), previews and applies it again
 * with every price and stock level changed (every size updated, every stock a correction), and
 * exports the catalogue. Prints each step's seconds, on SQLite and, with --postgres, PostgreSQL.
 * Then it previews files that once held the event loop for seconds (issue 31): 20,000 rows of 20 MB
 * (the largest file taken), a header of 80,000 names and 1 MB of blank lines, asking `/healthz`
 * every 20 ms meanwhile, and prints its slowest answer during each (target: under 100 ms).
 *
 *   npm run bench:products-csv -- [--rows 10000] [--postgres postgres://postgres@127.0.0.1:5432/test]
 */
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    postgres: { type: 'string' },
    port: { type: 'string', default: '3779' },
  },
});
const rowCount = Number(values.rows);
const port = Number(values.port);

function csvOf(rows: string[][]): string {
  return [productCsvHeader, ...rows]
    .map((cells) => cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(','))
    .join('\r\n');
}

/** Two sizes a product; `round` changes every price and stock level; `padding` lengthens each description. */
function generate(typePaths: string[], brands: string[], round: number, count = rowCount, padding = 0): string {
  const rows: string[][] = [];
  const stamp = 'bench';
  for (let n = 0; rows.length < count; n++) {
    const product = [
      `${stamp}-csv-tabla-${n}`,
      `Bench Tabla Set ${n}`,
      n % 10 === 0 ? 'draft' : 'published',
      typePaths[n % typePaths.length] as string,
      brands[n % brands.length] as string,
      `Hand-made tabla set number ${n}, with a "sheesham" dayan and a copper bayan.\nTuned to C sharp.${' Hand-finished.'.repeat(padding)}`,
      '',
      'tabla, bench',
      '',
      'bench tabla',
    ];
    for (const [size, pence] of [
      ['Standard', 10_000 + n],
      ['Concert', 20_000 + n],
    ] as const) {
      if (rows.length >= count) break;
      const price = pence + round * 100;
      rows.push([
        ...product,
        size,
        `${Math.trunc(price / 100)}.${String(price % 100).padStart(2, '0')}`,
        String(round * 5),
        String(((n + round) % 20) + 1),
      ]);
    }
  }
  return csvOf(rows);
}

async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-bench-csv-'));
  const schema = values.postgres ? await freshPostgresSchema(values.postgres) : undefined;
  const databaseUrl = schema?.url ?? `sqlite:${join(dir, 'bench.db')}`;
  await seedDatabase(databaseUrl, 200);

  const db = openDatabase(databaseUrl);
  const types = await db.kysely.selectFrom('product_types').select(['id', 'name', 'parent_id']).execute();
  const brands = (await db.kysely.selectFrom('brands').select('name').execute()).map((brand) => brand.name);
  const typePaths = types.map((type) => typeChainNames(type.id, types).reverse().join(' > '));
  const email = `bench.owner.${Date.now()}@shop.example`;
  const staff = createStaffService(db.kysely, { publicUrl: `http://localhost:${port}`, shopName: async () => 'Bench' });
  const { setPasswordUrl } = await staff.create({ email, name: 'Bench owner', role: 'owner' });
  await db.destroy();

  const server = await startBenchServer(databaseUrl, port, { TRUST_PROXY: 'true' });
  try {
    const base = `http://127.0.0.1:${port}/api/admin`;
    // Production mode, behind a proxy that reports HTTPS (signInBenchStaff's headers say so).
    const owner = await signInBenchStaff(port, { email, setPasswordUrl, password: 'Bench-Password-For-Owner-1' });

    const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now();
      const result = await work();
      return [result, (performance.now() - started) / 1000];
    };
    const importing = async (path: string, csv: string) => {
      const answer = await fetch(`${base}/products/import${path}`, {
        method: 'POST',
        headers: { ...owner, 'content-type': 'text/csv' },
        body: csv,
      });
      if (!answer.ok)
        throw new Error(`${path || 'apply'} answered ${answer.status}: ${(await answer.text()).slice(0, 500)}`);
      return (await answer.json()) as ProductImportSummary;
    };
    const figures: Array<[string, number, string]> = [];
    for (const [name, round] of [
      ['new products', 0],
      ['every price and stock changed', 1],
    ] as const) {
      const csv = generate(typePaths, brands, round);
      const [previewed, previewSeconds] = await timed(() => importing('/preview', csv));
      if (previewed.errorCount > 0)
        throw new Error(`the file has errors: ${JSON.stringify(previewed.errors.slice(0, 3))}`);
      const [applied, applySeconds] = await timed(() => importing('', csv));
      const what = `${applied.productsCreated} products created, ${applied.productsUpdated} updated, ${applied.sizesCreated + applied.sizesUpdated} sizes written, ${applied.stockAdjustments} stock corrections`;
      figures.push([`preview, ${name}`, previewSeconds, `${(csv.length / 1024 / 1024).toFixed(1)} MB`]);
      figures.push([`apply, ${name}`, applySeconds, what]);
    }
    const [exported, exportSeconds] = await timed(async () => {
      const answer = await fetch(`${base}/products.csv`, { headers: owner });
      return answer.text();
    });
    figures.push(['export', exportSeconds, `${exported.split('\r\n').length - 2} rows`]);

    console.log(`\n${values.postgres ? 'PostgreSQL' : 'SQLite'}, ${rowCount} rows`);
    console.log('| step | seconds | |\n|---|---|---|');
    for (const [step, seconds, note] of figures) console.log(`| ${step} | ${seconds.toFixed(2)} | ${note} |`);

    // The event loop while a preview runs: /healthz asked every 20 ms from this process.
    const healthWhile = async (
      csv: string,
    ): Promise<{ status: number; seconds: number; slowest: number; asked: number }> => {
      const times: number[] = [];
      let done = false;
      const asking = (async () => {
        while (!done) {
          const started = performance.now();
          await (await fetch(`http://127.0.0.1:${port}/healthz`)).text();
          times.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      const answer = await fetch(`${base}/products/import/preview`, {
        method: 'POST',
        headers: { ...owner, 'content-type': 'text/csv' },
        body: csv,
      });
      await answer.text();
      const seconds = (performance.now() - started) / 1000;
      done = true;
      await asking;
      return { status: answer.status, seconds, slowest: Math.max(...times), asked: times.length };
    };
    const hostile: Array<[string, string]> = [
      // About 1,000 characters a row: 20,000 rows make the 20 MB the import takes.
      ['20,000 rows, long descriptions', generate(typePaths, brands, 2, 20_000, 53)],
      ['a header of 80,000 names', `${Array.from({ length: 80_000 }, (_, n) => `c${n}`).join(',')}\r\n`],
      ['1 MB of blank lines', `${productCsvHeader.join(',')}\r\n${'\r\n'.repeat(500_000)}`],
    ];
    console.log(
      '\n| preview while /healthz is asked every 20 ms | size | answer | seconds | /healthz slowest | asked |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const [name, csv] of hostile) {
      const { status, seconds, slowest, asked } = await healthWhile(csv);
      const mb = (Buffer.byteLength(csv) / 1024 / 1024).toFixed(1);
      console.log(`| ${name} | ${mb} MB | ${status} | ${seconds.toFixed(2)} | ${slowest.toFixed(0)} ms | ${asked} |`);
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await run();
