import { loadConfig } from '../../config.ts';
import { restoreDatabase } from '../backup.ts';

/** npm run db:restore -- <file>: see src/server/db/backup.ts and docs/production.md. */
const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run db:restore -- <file>');
  process.exit(2);
}
const config = loadConfig();
try {
  await restoreDatabase(config.databaseUrl, file);
  console.log(`Restored from ${file}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
