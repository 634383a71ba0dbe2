import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { databaseSystemOf, describeDatabaseUrl, isDatabaseUnavailable, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoCatalogue } from './catalog/demo/demo-catalogue.ts';

/** Starts the shop: configuration, database, listen, graceful shutdown (docs/architecture.md). */

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

/**
 * Migrations and the demo seed run on a connection of their own, which may wait (another instance
 * migrating holds the lock) but gives up connecting within the configured time. A database that
 * cannot be reached stops the process with one line naming DATABASE_URL, not a stack trace.
 */
async function prepareDatabaseOrExit(config: Config): Promise<void> {
  const setup = openDatabase(config.databaseUrl, {
    poolSize: 1,
    timeouts: { connectMs: config.databaseTimeouts.connectMs },
  });
  try {
    await migrateToLatest(setup);
    if (config.seedDemo) await seedDemoCatalogue(setup);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    console.error(
      `Cannot reach the database at DATABASE_URL (${describeDatabaseUrl(config.databaseUrl)}): ${(error as Error).message}`,
    );
    process.exit(1);
  } finally {
    await setup.destroy().catch(() => undefined);
  }
}

const config = configOrExit();
await prepareDatabaseOrExit(config);
// Traces only when a collector is named: the OpenTelemetry SDK is not even loaded otherwise.
const tracing = config.tracing
  ? (await import('./tracing/tracing.ts')).startTracing({
      ...config.tracing,
      dbSystem: databaseSystemOf(config.databaseUrl),
    })
  : undefined;
// Serving, every wait on the database is limited, so a hung or locked one gets a quick 503.
const db = openDatabase(config.databaseUrl, {
  poolSize: config.databasePoolSize,
  checkoutPoolSize: config.databaseCheckoutPoolSize,
  timeouts: config.databaseTimeouts,
  ...(tracing ? { log: tracing.logQuery } : {}),
});
const app = await buildApp({ config, db, ...(tracing ? { tracing } : {}) });

/** How long requests in flight get to finish before the process stops anyway. */
const SHUTDOWN_GRACE_MS = 15_000;

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  // close() stops accepting connections and resolves once every connection has ended. A keep-alive
  // connection whose request finishes after that would stay open until its client lets go, so
  // each one is closed as soon as it falls idle.
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => {
    app.log.error('requests still running after the grace period; stopping anyway');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  deadline.unref();
  await app.close();
  clearInterval(closeIdle);
  await db.destroy();
  // The last spans, sent before the process goes.
  await tracing?.shutdown().catch(() => undefined);
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
  // Most often a second `npm start`, or another program on 3000: one line says what to do.
  console.error(
    `Port ${config.port} on ${config.host} is in use by another program: stop it, or set PORT to another port.`,
  );
  await db.destroy();
  process.exit(1);
}
app.log.info(`${config.shop.name} is open at ${config.publicUrl}`);
