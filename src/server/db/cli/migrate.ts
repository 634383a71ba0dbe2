import { loadConfig } from '../../config.ts';
import { openDatabase } from '../database.ts';
import { migrateToLatest } from '../migrate.ts';

/** npm run db:migrate — applies pending migrations to DATABASE_URL. */
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
const applied = await migrateToLatest(db);
console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
await db.destroy();
