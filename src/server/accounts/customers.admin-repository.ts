import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { dialectOfHandle } from '../db/database.ts';
import { eraseAuditFreeText } from '../audit/audit.repository.ts';

/**
 * Accounts' SQL for the back office: everything held about one, and erasure (finding customers,
 * guests too, is customer-list.admin-repository.ts).
 */

export function findCustomer(db: Kysely<Database>, id: number) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whom a GDPR request is about: an account, and whether its address was ever shown to be theirs. */
export interface DataSubject {
  id: number;
  email: string;
  /** Only a verified address claims what was done with it as a guest (orders, messages, mail). */
  verified: boolean;
}

/**
 * A customer's orders: those placed signed in, and, once their address is verified, those placed
 * as a guest with it. Anyone may register an address and never verify it: the guest orders placed
 * with it are its owner's, not that account's.
 */
function ordersOf(db: Kysely<Database>, customer: DataSubject) {
  return db
    .selectFrom('orders')
    .where((eb) =>
      customer.verified
        ? eb.or([
            eb('customer_id', '=', customer.id),
            eb.and([eb('customer_id', 'is', null), eb(sql<string>`lower(email)`, '=', customer.email.toLowerCase())]),
          ])
        : eb('customer_id', '=', customer.id),
    );
}

/**
 * A customer's orders; with `lockFor` PostgreSQL, locked for the rest of the transaction, so a
 * payment cannot land on one between erasure's look at it and its blanking (SQLite's writers
 * already take turns).
 */
export function findCustomerOrders(db: Kysely<Database>, customer: DataSubject, options: { lock?: boolean } = {}) {
  let query = ordersOf(db, customer).selectAll().orderBy('id', 'desc');
  if (options.lock && dialectOfHandle(db) === 'postgres') query = query.forUpdate();
  return query.execute();
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
 * again; the given orders (theirs, as findCustomerOrders finds them) keep what the accounts need
 * (lines, prices, VAT, countries, payment references) with every personal field blanked; their
 * sessions and links go, and with a verified address their messages and the mail to or about them;
 * the payment notifications about their orders lose their bodies (which name the payer).
 */
export async function eraseCustomer(
  trx: Kysely<Database>,
  customer: DataSubject,
  orderIds: number[],
  now: string,
): Promise<{ orders: number }> {
  const placeholder = `erased-${customer.id}@erased.invalid`;
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
  if (customer.verified) {
    await trx
      .deleteFrom('contact_messages')
      .where(sql<string>`lower(email)`, '=', customer.email.toLowerCase())
      .execute();
    await deleteMailToOrAbout(trx, customer.email);
  }
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

/**
 * Mail to an address (its recipient, exactly), and mail about it (the shop's copy of their
 * enquiry, which names them): the address whole, not inside a longer one. `ann@example.com` is
 * not `joann@example.com` nor `ann@example.com.au`, whose mail is someone else's.
 */
async function deleteMailToOrAbout(trx: Kysely<Database>, address: string): Promise<void> {
  const email = address.toLowerCase();
  const containing = `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // SQL narrows to the messages holding the text; the address's edges are checked here.
  const candidates = await trx
    .selectFrom('mail_queue')
    .select(['id', 'recipient', 'paragraphs'])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(recipient)`, '=', email),
        sql<SqlBool>`lower(paragraphs) like ${containing} escape '\\'`,
      ]),
    )
    .execute();
  const whole = new RegExp(`(?<![\\w.!#$%&'*+/=?^\`{|}~-])${escapeRegExp(email)}(?![\\w-]|\\.\\w)`, 'i');
  const ids = candidates
    .filter((mail) => mail.recipient.trim().toLowerCase() === email || whole.test(mail.paragraphs))
    .map((mail) => mail.id);
  if (ids.length > 0) await trx.deleteFrom('mail_queue').where('id', 'in', ids).execute();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
