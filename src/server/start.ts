import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedIfEmpty } from './db/seed/seed.ts';

/** Starts the shop: configuration, database, listen, graceful shutdown (DESIGN.md section 2). */

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = configOrExit();
const db = openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize });
await migrateToLatest(db);
if (config.seedDemo) await seedIfEmpty(db);
const app = await buildApp({ config, db });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  // close() stops accepting connections and resolves once requests in flight have been answered.
  await app.close();
  await db.destroy();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info(`${config.shop.name} is open at ${config.publicUrl}`);
