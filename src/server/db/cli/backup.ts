import { loadConfig } from '../../config.ts';
import { backupDatabase } from '../backup.ts';

/** npm run db:backup -- <file>: see src/server/db/backup.ts and docs/production.md. */
const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run db:backup -- <file>');
  process.exit(2);
}
const config = loadConfig();
try {
  await backupDatabase(config.databaseUrl, file);
  console.log(`Backed up to ${file}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
