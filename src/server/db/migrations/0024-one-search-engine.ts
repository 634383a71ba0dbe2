import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Every search, the back office's stock search included, is answered from the index each instance
 * keeps in memory (docs/decisions/0026-one-search-engine.md), which reads the products' columns
 * and the change log (0020). The databases' own full-text indexes answered differently from it and
 * from each other, and cost every write to a product: SQLite's FTS5 table and its triggers (0001,
 * 0016) and PostgreSQL's generated tsvector and its GIN index (0001) go.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`drop trigger if exists products_fts_insert`.execute(db);
    await sql`drop trigger if exists products_fts_delete`.execute(db);
    await sql`drop trigger if exists products_fts_update`.execute(db);
    await sql`drop table if exists products_fts`.execute(db);
    return;
  }
  await sql`drop index if exists products_search_idx`.execute(db);
  await sql`alter table products drop column if exists search_vector`.execute(db);
}
