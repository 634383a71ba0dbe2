import { awaitingPayment } from '../../contract/order-status.ts';
import { sql, type Insertable, type Kysely } from 'kysely';
import { dialectOfHandle } from '../db/database.ts';
import type { Database, DeliveryMethodTable } from '../db/schema.ts';

/** Delivery's SQL for the back office (docs/back-office.md#delivery). Writes take the caller's transaction. */

export type DeliveryMethodValues = Omit<Insertable<DeliveryMethodTable>, 'id' | 'sort_order'>;

export function listCountries(db: Kysely<Database>) {
  return db.selectFrom('countries').select(['id', 'name', 'iso_code']).orderBy('name').execute();
}

export function findCountry(db: Kysely<Database>, id: number) {
  return db.selectFrom('countries').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findCountryByIso(db: Kysely<Database>, isoCode: string) {
  return db.selectFrom('countries').selectAll().where('iso_code', '=', isoCode).executeTakeFirst();
}

export function listMethods(db: Kysely<Database>) {
  return db
    .selectFrom('delivery_methods')
    .selectAll()
    .orderBy('country_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export function findMethod(db: Kysely<Database>, id: number) {
  return db.selectFrom('delivery_methods').selectAll().where('id', '=', id).executeTakeFirst();
}

export function methodsOfCountry(db: Kysely<Database>, countryId: number) {
  return db
    .selectFrom('delivery_methods')
    .selectAll()
    .where('country_id', '=', countryId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/**
 * The next id of a table whose ids the seed data chose (countries, delivery methods): the largest
 * plus one, with the table locked against other writers on PostgreSQL (readers carry on); SQLite's
 * write transactions already run one at a time.
 */
async function nextId(trx: Kysely<Database>, table: 'countries' | 'delivery_methods') {
  if (dialectOfHandle(trx) === 'postgres') await sql`lock table ${sql.table(table)} in exclusive mode`.execute(trx);
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0) + 1;
}

export async function insertMethod(trx: Kysely<Database>, values: DeliveryMethodValues) {
  const id = await nextId(trx, 'delivery_methods');
  const last = await trx
    .selectFrom('delivery_methods')
    .select((eb) => eb.fn.max<number | null>('sort_order').as('n'))
    .where('country_id', '=', values.country_id)
    .executeTakeFirst();
  await trx
    .insertInto('delivery_methods')
    .values({ ...values, id, sort_order: Number(last?.n ?? -1) + 1 })
    .execute();
  return id;
}

export async function updateMethod(trx: Kysely<Database>, id: number, values: DeliveryMethodValues) {
  await trx.updateTable('delivery_methods').set(values).where('id', '=', id).execute();
}

export async function setMethodOrder(trx: Kysely<Database>, id: number, sortOrder: number) {
  await trx.updateTable('delivery_methods').set({ sort_order: sortOrder }).where('id', '=', id).execute();
}

export async function insertCountry(trx: Kysely<Database>, country: { name: string; isoCode: string }) {
  const id = await nextId(trx, 'countries');
  await trx.insertInto('countries').values({ id, name: country.name, iso_code: country.isoCode }).execute();
  return id;
}

export async function deleteCountry(trx: Kysely<Database>, id: number) {
  await trx.deleteFrom('countries').where('id', '=', id).execute();
}

/** What keeps a country from being removed: its delivery methods, and unpaid orders to or from it. */
export async function countryUses(db: Kysely<Database>, id: number) {
  const [methods, orders] = await Promise.all([
    db
      .selectFrom('delivery_methods')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('country_id', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', 'in', awaitingPayment)
      .where((eb) => eb.or([eb('delivery_country_id', '=', id), eb('billing_country_id', '=', id)]))
      .executeTakeFirstOrThrow(),
  ]);
  return { methods: Number(methods.n), unpaidOrders: Number(orders.n) };
}
