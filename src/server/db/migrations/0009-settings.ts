import type { Kysely } from 'kysely';

/**
 * Values the shop makes for itself once per database and every instance on it must share, such
 * as the local PayPal sandbox's signing key (docs/rules.md#operations): one row per name, written once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
