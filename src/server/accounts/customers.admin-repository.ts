import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { eraseAuditFreeText } from '../audit/audit.repository.ts';

/** Customers' SQL for the back office: finding them, everything held about one, and erasure. */

type Customers = ExpressionBuilder<Database, 'customers'>;
const lowerOf = (column: 'lastname' | 'firstname' | 'email') => sql<string>`lower(${sql.ref(column)})`;

/** A prefix as a range, so the lower(...) indexes of migration 0011 serve it. */
function startsWith(eb: Customers, expression: Expression<string>, prefix: string): Expression<SqlBool> {
  return eb.and([eb(expression, '>=', prefix), eb(expression, '<', `${prefix}\uffff`)]);
}

function matching(db: Kysely<Database>, q: string | undefined) {
  return db.selectFrom('customers').where((eb) => {
    const words = (q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return eb.and([]);
    if (words.length >= 2) {
      return eb.and([
        startsWith(eb, lowerOf('firstname'), words[0]!),
        startsWith(eb, lowerOf('lastname'), words.at(-1)!),
      ]);
    }
    return eb.or([startsWith(eb, lowerOf('email'), words[0]!), startsWith(eb, lowerOf('lastname'), words[0]!)]);
  });
}

export async function listCustomers(
  db: Kysely<Database>,
  query: { q?: string | undefined; page: number; pageSize: number },
) {
  const rows = await matching(db, query.q)
    .select(['id', 'email', 'firstname', 'lastname', 'created_at', 'verified_at', 'erased_at'])
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const { n } = await matching(db, query.q)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export function findCustomer(db: Kysely<Database>, id: number) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A customer's orders: those placed signed in, and those placed as a guest with their address. */
function ordersOf(db: Kysely<Database>, customer: { id: number; email: string }) {
  return db
    .selectFrom('orders')
    .where((eb) =>
      eb.or([eb('customer_id', '=', customer.id), eb(sql<string>`lower(email)`, '=', customer.email.toLowerCase())]),
    );
}

export function findCustomerOrders(db: Kysely<Database>, customer: { id: number; email: string }) {
  return ordersOf(db, customer).selectAll().orderBy('id', 'desc').execute();
}

export function findOrderLinesOf(db: Kysely<Database>, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('order_lines').selectAll().where('order_id', 'in', orderIds).orderBy('id').execute();
}

export function findContactMessagesFrom(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('contact_messages')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .orderBy('id')
    .execute();
}

/**
 * Erases a customer's personal data (UK GDPR): the account row is emptied and can never sign in
 * again; their orders keep what the accounts need (lines, prices, VAT, countries, payment
 * references) with every personal field blanked; their messages, queued mail, sessions and links
 * go; the payment notifications about their orders lose their bodies (which name the payer).
 */
export async function eraseCustomer(
  trx: Kysely<Database>,
  customer: { id: number; email: string },
  now: string,
): Promise<{ orders: number }> {
  const placeholder = `erased-${customer.id}@erased.invalid`;
  const orderIds = (await ordersOf(trx, customer).select('id').execute()).map((row) => row.id);
  if (orderIds.length > 0) {
    await trx
      .updateTable('orders')
      .set({
        firstname: 'Erased',
        lastname: 'customer',
        email: placeholder,
        email_key: null,
        contact_number: '',
        client_address: null,
        billing_line1: '',
        billing_line2: '',
        billing_line3: '',
        billing_postcode: '',
        billing_town_city: '',
        delivery_line1: '',
        delivery_line2: '',
        delivery_line3: '',
        delivery_postcode: '',
        delivery_town_city: '',
        updated_at: now,
      })
      .where('id', 'in', orderIds)
      .execute();
    await trx.updateTable('payment_events').set({ body: '' }).where('order_id', 'in', orderIds).execute();
    // What staff typed about these orders may name the customer.
    await trx.updateTable('order_refunds').set({ note: null }).where('order_id', 'in', orderIds).execute();
    // A refund through a provider keeps staff's reason on its request too (the column is required).
    await trx.updateTable('refund_requests').set({ note: '' }).where('order_id', 'in', orderIds).execute();
    const numbers = await trx.selectFrom('orders').select('order_number').where('id', 'in', orderIds).execute();
    await eraseAuditFreeText(
      trx,
      'order',
      numbers.map((row) => row.order_number),
    );
  }
  await trx
    .deleteFrom('contact_messages')
    .where(sql<string>`lower(email)`, '=', customer.email.toLowerCase())
    .execute();
  // Mail to them, and mail about them (the shop's copy of their message names them).
  const email = customer.email.toLowerCase();
  const mentioning = `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await trx
    .deleteFrom('mail_queue')
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(recipient)`, '=', email),
        sql<SqlBool>`lower(paragraphs) like ${mentioning} escape '\\'`,
      ]),
    )
    .execute();
  await trx.deleteFrom('sessions').where('customer_id', '=', customer.id).execute();
  await trx.deleteFrom('account_tokens').where('customer_id', '=', customer.id).execute();
  await trx
    .updateTable('customers')
    .set({
      email: placeholder,
      firstname: 'Erased',
      lastname: 'customer',
      // Not a hash of anything: no password matches it.
      password_hash: 'erased',
      contact_number: '',
      billing_line1: '',
      billing_line2: '',
      billing_line3: '',
      billing_postcode: '',
      billing_town_city: '',
      billing_country_id: null,
      delivery_line1: '',
      delivery_line2: '',
      delivery_line3: '',
      delivery_postcode: '',
      delivery_town_city: '',
      delivery_country_id: null,
      erased_at: now,
    })
    .where('id', '=', customer.id)
    .execute();
  return { orders: orderIds.length };
}
