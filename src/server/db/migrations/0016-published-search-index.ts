import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * SQLite's full-text index holds published products only (docs/rules.md#catalogue-and-search).
 * Shoppers search published products alone, so a keyword search is then answered from the index
 * without reading each match's product row to check its status; counting a broad word's matches
 * was most of a search's cost. The triggers follow a product in and out of the index as its status
 * changes; the old entry is always removed before the new one is added, since FTS5 removes an
 * external-content entry by the words it was indexed with. PostgreSQL's tsvector is a column of the
 * product and its searches filter by status as before.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`drop trigger products_fts_insert`.execute(db);
  await sql`drop trigger products_fts_delete`.execute(db);
  await sql`drop trigger products_fts_update`.execute(db);
  await sql`create trigger products_fts_insert after insert on products when new.status = 'published' begin
    insert into products_fts(rowid, title, search_tags, search_text)
      values (new.id, new.title, new.search_tags, new.search_text);
  end`.execute(db);
  await sql`create trigger products_fts_delete after delete on products when old.status = 'published' begin
    insert into products_fts(products_fts, rowid, title, search_tags, search_text)
      values ('delete', old.id, old.title, old.search_tags, old.search_text);
  end`.execute(db);
  await sql`create trigger products_fts_update after update of title, search_tags, search_text, status on products begin
    insert into products_fts(products_fts, rowid, title, search_tags, search_text)
      select 'delete', old.id, old.title, old.search_tags, old.search_text where old.status = 'published';
    insert into products_fts(rowid, title, search_tags, search_text)
      select new.id, new.title, new.search_tags, new.search_text where new.status = 'published';
  end`.execute(db);
  // Re-index: drafts and archived products leave the index.
  await sql`insert into products_fts(products_fts) values ('delete-all')`.execute(db);
  await sql`insert into products_fts(rowid, title, search_tags, search_text)
    select id, title, search_tags, search_text from products where status = 'published'`.execute(db);
}
