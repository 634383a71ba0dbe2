import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { seedDemoCatalogue } from '../demo/demo-catalogue.ts';

/**
 * npm run db:seed [-- --products N] — seeds an empty DATABASE_URL with the demo catalogue, or with
 * N generated products (for benchmarks). A database that already has a catalogue is left alone.
 */
const { values } = parseArgs({ options: { products: { type: 'string' } } });
const products = values.products === undefined ? undefined : Number(values.products);
if (products !== undefined && !(Number.isInteger(products) && products > 0 && products <= 1_000_000)) {
  console.error('--products must be a whole number from 1 to 1000000');
  process.exit(1);
}
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
const started = Date.now();
const result = await seedDemoCatalogue(db, products === undefined ? {} : { products });
console.log(
  result.seeded
    ? `Seeded ${result.products} products in ${((Date.now() - started) / 1000).toFixed(1)} s.`
    : 'The database already has a catalogue; nothing seeded.',
);
await db.destroy();
