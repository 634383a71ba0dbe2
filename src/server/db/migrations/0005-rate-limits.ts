import type { Kysely } from 'kysely';

/**
 * Rate-limit counters kept in the database, so that every instance behind a load balancer counts
 * the same requests (docs/decisions/0005-shared-rate-limits.md): one row per limited route and
 * client address, for one window.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    // Milliseconds since the epoch; bigint because it passes 2^31.
    .addColumn('window_ends_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_window_idx').on('rate_limit_hits').column('window_ends_at').execute();
}
