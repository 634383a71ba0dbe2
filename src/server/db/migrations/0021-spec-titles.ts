import type { Kysely } from 'kysely';

/**
 * The spec's titles (MR, MRS, MS) in every shop's database. They came only with the demo catalogue
 * (SEED_DEMO), so a shop started for a real catalogue had none: the account and checkout forms
 * offered no title, no one could register or check out, and the back office has no page to add
 * them. A database that has titles already (a demo one) keeps its own.
 */
const specTitles = [
  { id: 1, name: 'MR', sort_order: 0 },
  { id: 2, name: 'MRS', sort_order: 1 },
  { id: 3, name: 'MS', sort_order: 2 },
];

export async function up(db: Kysely<any>): Promise<void> {
  const any = await db.selectFrom('titles').select('id').limit(1).executeTakeFirst();
  if (!any) await db.insertInto('titles').values(specTitles).execute();
}
