import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The `settings` table: values made once per database (migration 0009). The first instance to ask
 * writes its candidate; every other, at once or later, reads that one.
 */
export async function settingOrCreate(db: Kysely<Database>, name: string, candidate: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ name, value: candidate() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

/** A setting staff may change (the low-stock threshold), or undefined when none is stored. */
export async function readSetting(db: Kysely<Database>, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Stores a setting, replacing its value; takes the caller's transaction. */
export async function writeSetting(db: Kysely<Database>, name: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
