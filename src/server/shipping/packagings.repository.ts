import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Packaging presets (migration 0037): boxes and crates sizes are sent in. */

type Db = Kysely<Database>;
export interface PackagingValues {
  name: string;
  length_mm: number;
  width_mm: number;
  height_mm: number;
  weight_grams: number;
}

/** Every preset by name, each with how many sizes are sent in it. */
export function listPackagings(db: Db) {
  return db
    .selectFrom('packagings as p')
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('product_stocks as s')
        .whereRef('s.packaging_id', '=', 'p.id')
        .select((count) => count.fn.countAll<number>().as('n'))
        .as('sizes'),
    )
    .orderBy('p.name')
    .execute();
}

export function findPackaging(db: Db, id: number) {
  return db.selectFrom('packagings').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPackaging(db: Db, values: PackagingValues): Promise<number> {
  const row = await db.insertInto('packagings').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePackaging(db: Db, id: number, values: PackagingValues): Promise<boolean> {
  const result = await db.updateTable('packagings').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes a preset no size is sent in; answers whether it went. */
export async function deleteUnusedPackaging(db: Db, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('packagings')
    .where('id', '=', id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('product_stocks as s').select('s.id').whereRef('s.packaging_id', '=', 'packagings.id'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function countSizesIn(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('product_stocks')
    .where('packaging_id', '=', id)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which of these preset ids exist. */
export async function existingPackagingIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('packagings')
    .select('id')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return rows.map((row) => row.id);
}
