import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A log of which products changed in what search reads (docs/decisions/0017-in-process-search-index.md).
 * Each instance keeps the catalogue's search index in memory and reads this log to follow changes
 * made anywhere: triggers add a row for a product inserted, deleted, or updated in its title,
 * search tags and text, status, type or brand, and for a size added, removed or repriced (the
 * price order reads the lowest price). A stock level changing (every checkout) writes nothing.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('search_changes')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .execute();

  if (dialect === 'sqlite') {
    const log = (productId: string) => sql.raw(`insert into search_changes(product_id) values (${productId});`);
    await sql`create trigger search_changes_product_insert after insert on products begin ${log('new.id')} end`.execute(
      db,
    );
    await sql`create trigger search_changes_product_update
      after update of title, search_tags, search_text, status, product_type_id, brand_id on products
      begin ${log('new.id')} end`.execute(db);
    await sql`create trigger search_changes_product_delete after delete on products begin ${log('old.id')} end`.execute(
      db,
    );
    await sql`create trigger search_changes_stock_insert after insert on product_stocks
      begin ${log('new.product_id')} end`.execute(db);
    await sql`create trigger search_changes_stock_update after update of price, product_id on product_stocks
      begin ${log('new.product_id')} ${log('old.product_id')} end`.execute(db);
    await sql`create trigger search_changes_stock_delete after delete on product_stocks
      begin ${log('old.product_id')} end`.execute(db);
    return;
  }
  await sql`create function log_search_change() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'products' then
        insert into search_changes(product_id) values (case when tg_op = 'DELETE' then old.id else new.id end);
      else
        if tg_op <> 'INSERT' then insert into search_changes(product_id) values (old.product_id); end if;
        if tg_op <> 'DELETE' then insert into search_changes(product_id) values (new.product_id); end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_changes_products
    after insert or delete or update of title, search_tags, search_text, status, product_type_id, brand_id on products
    for each row execute function log_search_change()`.execute(db);
  await sql`create trigger search_changes_product_stocks
    after insert or delete or update of price, product_id on product_stocks
    for each row execute function log_search_change()`.execute(db);
}
