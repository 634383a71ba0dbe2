import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL takes order numbers from a sequence instead of the `counters` row
 * (docs/rules.md#orders-and-stock): the row lock made concurrent commits wait for each other from
 * the number to the end of the transaction. A commit that fails after taking a number leaves a gap,
 * which order numbers may have. SQLite has one writer at a time anyway and keeps the counter.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create sequence order_number_seq`.execute(db);
  // The next number follows the last one the counter gave.
  await sql`select setval('order_number_seq', (select value from counters where name = 'order_number'))`.execute(db);
}
