import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The catalogue in the back office (docs/back-office.md#catalogue, ADR 0010):
 * - a product's status: only `published` products are shown to shoppers; every product so far was
 *   on sale, so they start published;
 * - `tags`, the search tags staff type; `search_tags` (indexed) becomes those tags with the
 *   product's type names and brand name added by the server, so renaming a type or a brand keeps
 *   search in step. Seeded products' `search_tags` began with their type, parent type and brand
 *   names: what follows them is their own tags;
 * - the URL keys a product had before, each answering a 301 to its current page;
 * - brands get an order of their own (by name, as before, until staff reorder them);
 * - on SQLite, a removed size's id is never given to a new one (AUTOINCREMENT): baskets in
 *   browsers hold size ids, and one must never come to mean another size. PostgreSQL's identity
 *   never reuses an id.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('status', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('published')
        .check(sql`status in ('draft', 'published', 'archived')`),
    )
    .execute();
  await db.schema
    .alterTable('products')
    .addColumn('tags', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .execute();

  await backfillTags(db);

  await db.schema
    .createTable('product_url_redirects')
    .addColumn('old_key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('product_url_redirects_product_idx')
    .on('product_url_redirects')
    .column('product_id')
    .execute();

  await db.schema
    .alterTable('brands')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect === 'sqlite') await sizeIdsNeverReused(db);
}

/** product_stocks as migration 0001 made it, rebuilt with AUTOINCREMENT, its rows and ids kept. */
async function sizeIdsNeverReused(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_stocks_0012')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('size_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('price_reduction', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`price_reduction between 0 and 100`),
    )
    .addColumn('price_without_discount', 'integer', (c) => c.notNull().check(sql`price_without_discount >= 0`))
    .addColumn('stock', 'integer', (c) => c.notNull().check(sql`stock >= 0`))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into product_stocks_0012 (id, product_id, size_name, price, price_reduction, price_without_discount, stock, sort_order)
    select id, product_id, size_name, price, price_reduction, price_without_discount, stock, sort_order from product_stocks`.execute(
    db,
  );
  await db.schema.dropTable('product_stocks').execute();
  await db.schema.alterTable('product_stocks_0012').renameTo('product_stocks').execute();
  await db.schema.createIndex('product_stocks_product_idx').on('product_stocks').column('product_id').execute();
}

/**
 * A seeded product's search tags were its type's, parent type's and brand's names, then its own
 * words (`[type, parent, brand, words].join(' ')`): its own words become its `tags`. Tags of any
 * other shape are kept whole.
 */
export async function backfillTags(db: Kysely<any>): Promise<void> {
  const prefix = sql`(select t.name || ' ' || coalesce(pt.name, '') || ' ' || b.name || ' '
    from product_types t
    left join product_types pt on pt.id = t.parent_id
    cross join brands b
    where t.id = products.product_type_id and b.id = products.brand_id)`;
  await sql`update products set tags = case
      when substr(search_tags, 1, length(${prefix})) = ${prefix} then trim(substr(search_tags, length(${prefix}) + 1))
      else search_tags
    end`.execute(db);
}
