import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Unpaid orders are capped per e-mail address and per client (docs/rules.md#limits-on-one-client),
 * so an order keeps the client it was placed from and its e-mail address in the form it is counted
 * by (lower case, without a `+tag` or dots in the local part), and both are looked up among unpaid
 * orders at each commit. A replacement order keeps its chain's `held_since`.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('orders').addColumn('client_address', 'varchar(64)').execute();
  await db.schema.alterTable('orders').addColumn('email_key', 'varchar(255)').execute();
  // When the first order of a chain of replacements (BACK TO CART, commit again) was placed: the
  // chain may hold its stock for at most twice the reservation time from then.
  await db.schema.alterTable('orders').addColumn('held_since', 'varchar(40)').execute();
  await db.schema.createIndex('orders_email_key_status_idx').on('orders').columns(['email_key', 'status']).execute();
  await db.schema
    .createIndex('orders_client_address_status_idx')
    .on('orders')
    .columns(['client_address', 'status'])
    .execute();
}
