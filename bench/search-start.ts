import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { createSearchEngine } from '../src/server/catalog/search-engine/search-engine.ts';
import { createSearchEngineRepository } from '../src/server/catalog/search-engine/search-engine.repository.ts';
import { listStock } from '../src/server/catalog/stock.admin-repository.ts';
import { freshPostgresSchema, seedDatabase } from './harness.ts';

/**
 * What a start-up costs a search now that every search waits for the index (ADR 0026): seeds a
 * catalogue (100,000 products by default, SQLite unless --database), starts the engine as the
 * server does (a child process builds a large catalogue's index) and times the first search, which
 * waits for that build; then the stock page's search for broad words (engine, then the sizes).
 *
 *   node bench/search-start.ts [--products 100000 --runs 3 --postgres postgres://postgres@127.0.0.1:5432/bench]
 *
 * With --postgres, a schema of its own on that server, dropped after.
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    postgres: { type: 'string' },
    'no-vacuum': { type: 'boolean', default: false },
  },
});
const products = Number(values.products);
const dir = mkdtempSync(join(tmpdir(), 'search-start-'));
const schema = values.postgres ? await freshPostgresSchema(values.postgres) : undefined;
const url = schema?.url ?? `sqlite:${join(dir, 'bench.db')}`;
try {
  await seedDatabase(url, products);
  const db = openDatabase(url);
  await migrateToLatest(db);
  // What autovacuum soon does after a bulk load, as bench/search.ts does (ADR 0017); --no-vacuum
  // measures a start right after one.
  if (schema && !values['no-vacuum']) await sql`vacuum analyze`.execute(db.kysely);
  for (let run = 0; run < Number(values.runs); run++) {
    const engine = createSearchEngine(createSearchEngineRepository(db.kysely), {
      maxLagMs: 1_000,
      separateBuild: { connection: db.reopen },
      onError: (error) => console.error(error),
    });
    const started = performance.now();
    engine.start();
    const first = await engine.search({ keyword: 'tabla', sort: 'relevance', offset: 0, limit: 36 });
    console.log(
      `run ${run + 1}: first search answered ${(performance.now() - started).toFixed(0)} ms after start` +
        ` (${first?.total ?? 'no'} matches for "tabla")`,
    );
    for (const q of ['drum', 'tabla', 'wood', 'harmonium case', 'harmonum']) {
      const at = performance.now();
      const ids = await engine.matchingIds(q);
      const matched = performance.now();
      const page = await listStock(db.kysely, { productIds: ids, limit: 50, offset: 0 });
      const low = await listStock(db.kysely, { productIds: ids, atMost: 3, limit: 50, offset: 0 });
      const done = performance.now();
      console.log(
        `  stock page "${q}": ${ids?.length ?? 0} products, ${page.total} sizes (${low.total} low);` +
          ` engine ${(matched - at).toFixed(1)} ms, both pages' SQL ${(done - matched).toFixed(1)} ms`,
      );
    }
    engine.stop();
  }
  await db.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
  await schema?.drop();
}
