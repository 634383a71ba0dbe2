import type { Insertable, Kysely } from 'kysely';
import type { CustomerTable, Database } from '../db/schema.ts';
import { isUniqueViolation } from '../db/database.ts';

/** Accounts' SQL: customers, single-use tokens and sessions. */

export function findCustomerByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('customers').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findCustomerById(db: Kysely<Database>, id: number) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The new customer's id, or undefined when the e-mail address is registered already. */
export async function insertCustomer(
  db: Kysely<Database>,
  customer: Insertable<CustomerTable>,
): Promise<number | undefined> {
  try {
    return (await db.insertInto('customers').values(customer).returning('id').executeTakeFirstOrThrow()).id;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function insertToken(
  db: Kysely<Database>,
  token: { customerId: number; purpose: 'verify' | 'reset'; hash: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('account_tokens')
    .values({
      customer_id: token.customerId,
      purpose: token.purpose,
      token_hash: token.hash,
      expires_at: token.expiresAt,
      used_at: null,
    })
    .execute();
}

/**
 * Uses a token once: answers its customer when it was unused and unexpired. It ends, in the same
 * statement, every other live token of that purpose for the customer, so a link sent earlier stops
 * working once any of them is used (docs/rules.md#accounts-and-sessions). The given token counts as
 * used only when its own row was still unused as the statement ran, so two uses at once let one
 * through.
 */
export async function useToken(
  db: Kysely<Database>,
  purpose: 'verify' | 'reset',
  hash: string,
  now: string,
): Promise<number | undefined> {
  const rows = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('customer_id', '=', (eb) =>
      eb
        .selectFrom('account_tokens')
        .select('customer_id')
        .where('token_hash', '=', hash)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now),
    )
    .returning(['customer_id', 'token_hash'])
    .execute();
  return rows.find((row) => row.token_hash === hash)?.customer_id;
}

/**
 * A new token in place of every earlier one of its purpose, in the caller's transaction (which
 * queues the link's mail with it). The customer's row is locked first (a no-op update), so two
 * requests at once queue here on PostgreSQL and the later one ends the earlier one's token;
 * SQLite's write transactions take turns anyway.
 */
export async function replaceTokens(
  trx: Kysely<Database>,
  token: { customerId: number; purpose: 'verify' | 'reset'; hash: string; expiresAt: string },
  now: string,
): Promise<void> {
  await trx
    .updateTable('customers')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', token.customerId)
    .execute();
  await endTokens(trx, token.customerId, token.purpose, now);
  await insertToken(trx, token);
}

/** Ends every live token of a purpose for a customer. */
export async function endTokens(
  db: Kysely<Database>,
  customerId: number,
  purpose: 'verify' | 'reset',
  now: string,
): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('customer_id', '=', customerId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export async function markVerified(db: Kysely<Database>, customerId: number, now: string): Promise<void> {
  await db
    .updateTable('customers')
    .set({ verified_at: now })
    .where('id', '=', customerId)
    .where('verified_at', 'is', null)
    .execute();
}

export async function setPasswordHash(db: Kysely<Database>, customerId: number, hash: string): Promise<void> {
  await db.updateTable('customers').set({ password_hash: hash }).where('id', '=', customerId).execute();
}

export async function insertSession(
  db: Kysely<Database>,
  session: { hash: string; customerId: number; now: string; expiresAt: string },
) {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.hash,
      customer_id: session.customerId,
      created_at: session.now,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .execute();
}

export async function findLiveSession(db: Kysely<Database>, hash: string, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'customer_id'])
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function revokeSession(db: Kysely<Database>, hash: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeAllSessions(db: Kysely<Database>, customerId: number, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function saveProfile(
  db: Kysely<Database>,
  customerId: number,
  profile: {
    title_id: number;
    firstname: string;
    lastname: string;
    contact_number: string;
    billing: { line1: string; line2: string; line3: string; postcode: string; townCity: string; countryId: number };
    delivery: { line1: string; line2: string; line3: string; postcode: string; townCity: string; countryId: number };
  },
): Promise<void> {
  const { billing: b, delivery: d } = profile;
  await db
    .updateTable('customers')
    .set({
      title_id: profile.title_id,
      firstname: profile.firstname,
      lastname: profile.lastname,
      contact_number: profile.contact_number,
      billing_line1: b.line1,
      billing_line2: b.line2,
      billing_line3: b.line3,
      billing_postcode: b.postcode,
      billing_town_city: b.townCity,
      billing_country_id: b.countryId,
      delivery_line1: d.line1,
      delivery_line2: d.line2,
      delivery_line3: d.line3,
      delivery_postcode: d.postcode,
      delivery_town_city: d.townCity,
      delivery_country_id: d.countryId,
    })
    .where('id', '=', customerId)
    .execute();
}

export async function revokeOtherSessions(
  db: Kysely<Database>,
  customerId: number,
  keepHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('customer_id', '=', customerId)
    .where('token_hash', '<>', keepHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function ordersOf(db: Kysely<Database>, customerId: number) {
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  const lines =
    orders.length === 0
      ? []
      : await db
          .selectFrom('order_lines')
          .selectAll()
          .where(
            'order_id',
            'in',
            orders.map((o) => o.id),
          )
          .orderBy('id')
          .execute();
  return { orders, lines };
}
