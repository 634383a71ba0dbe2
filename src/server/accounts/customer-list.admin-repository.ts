import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Customers as e-mail addresses (docs/back-office.md#customers): every address with orders or an
 * account, registered or a guest. An order is its account's when placed signed in (whatever
 * address it gave), and otherwise its address's, in any case: `coalesce(lower(account.email),
 * lower(order.email))` is the customer an order belongs to. Nothing is stored per customer: the
 * sums are made from the orders each time, through the indexes of migrations 0011 and 0028.
 */

/** An order's customer: its account's address, or the address it was placed with. */
const keyOfOrder = sql<string>`coalesce(lower(c.email), lower(o.email))`;

/** Text that starts with `prefix`, as a range an index on the same expression can serve. */
const startsWith = (expression: RawBuilder<unknown>, prefix: string) =>
  sql<SqlBool>`(${expression} >= ${prefix} and ${expression} < ${`${prefix}\uffff`})`;

const UK_POSTCODE_START = /^[A-Z]{1,2}\d[A-Z\d]?(\d[A-Z]{0,2})?$/;

/** The same expressions as the indexes (migrations 0011 and 0028), so a search uses them. */
const orderColumn = {
  email: sql`lower(o.email)`,
  firstname: sql`lower(o.firstname)`,
  lastname: sql`lower(o.lastname)`,
  deliveryPostcode: sql`replace(upper(o.delivery_postcode), ' ', '')`,
  billingPostcode: sql`replace(upper(o.billing_postcode), ' ', '')`,
  deliveryLine1: sql`lower(o.delivery_line1)`,
  billingLine1: sql`lower(o.billing_line1)`,
};
const accountColumn = {
  email: sql`lower(c.email)`,
  firstname: sql`lower(c.firstname)`,
  lastname: sql`lower(c.lastname)`,
};

const anyOf = (conditions: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;

/**
 * What a search box's text can mean: the start of an e-mail address (with an @), a postcode, a
 * surname or the start of an address (one word), a first name and surname or the start of an
 * address (more words).
 */
function orderMatches(text: string): RawBuilder<SqlBool> {
  const lower = text.toLowerCase();
  if (lower.includes('@')) return startsWith(orderColumn.email, lower);
  const compact = text.toUpperCase().replace(/\s+/g, '');
  const byLine = [startsWith(orderColumn.deliveryLine1, lower), startsWith(orderColumn.billingLine1, lower)];
  if (/\d/.test(compact) && UK_POSTCODE_START.test(compact)) {
    return anyOf([
      startsWith(orderColumn.deliveryPostcode, compact),
      startsWith(orderColumn.billingPostcode, compact),
      ...byLine,
    ]);
  }
  const words = lower.split(/\s+/);
  if (words.length >= 2) {
    return anyOf([
      sql<SqlBool>`(${startsWith(orderColumn.firstname, words[0]!)} and ${startsWith(orderColumn.lastname, words.at(-1)!)})`,
      ...byLine,
    ]);
  }
  return anyOf([startsWith(orderColumn.lastname, lower), startsWith(orderColumn.email, lower), ...byLine]);
}

/** Accounts are found by e-mail address and name; their addresses are found through their orders. */
function accountMatches(text: string): RawBuilder<SqlBool> {
  const lower = text.toLowerCase();
  if (lower.includes('@')) return startsWith(accountColumn.email, lower);
  const words = lower.split(/\s+/);
  if (words.length >= 2) {
    return sql<SqlBool>`(${startsWith(accountColumn.firstname, words[0]!)} and ${startsWith(accountColumn.lastname, words.at(-1)!)})`;
  }
  return anyOf([startsWith(accountColumn.lastname, lower), startsWith(accountColumn.email, lower)]);
}

/** Which customers: all, those a search finds, or the one with an address. */
export type CustomerSelection = { all: true } | { search: string } | { key: string };

/**
 * The customers selected, one row each, with their sums: `merged` in SQL. A search first finds
 * the addresses it matches (`matched`), then sums every order of those addresses, matched or not.
 */
function customersCte(selection: CustomerSelection) {
  const narrowed = !('all' in selection);
  const matched =
    'search' in selection
      ? sql`select ${keyOfOrder} from orders o left join customers c on c.id = o.customer_id
              where ${orderMatches(selection.search)}
            union
            select lower(c.email) from customers c where ${accountMatches(selection.search)}`
      : 'key' in selection
        ? sql`select cast(${selection.key} as varchar(254))`
        : sql`select null`;
  // An account's orders by customer_id, a guest's by address: both indexed (migration 0028, 0011).
  const ownedWhere = narrowed
    ? sql`where o.customer_id in (select a.id from customers a where lower(a.email) in (select k from matched))
            or (o.customer_id is null and lower(o.email) in (select k from matched))`
    : sql``;
  const accountsWhere = narrowed ? sql`where lower(email) in (select k from matched)` : sql``;
  return sql`
    with matched(k) as (${matched}),
    owned as (
      select ${keyOfOrder} as k, o.id, o.order_number, o.created_at, o.paid_at,
             o.total_including_delivery, o.refunded_total
      from orders o left join customers c on c.id = o.customer_id
      ${ownedWhere}
    ),
    everyone as (
      select k, count(*) as order_count,
             sum(case when paid_at is not null then 1 else 0 end) as paid_orders,
             sum(case when paid_at is not null then total_including_delivery - refunded_total else 0 end) as total_spent,
             max(created_at) as last_order_at, max(id) as last_order_id, min(order_number) as first_order_number
      from owned group by k
      union all
      select lower(email), 0, 0, 0, null, null, null from customers ${accountsWhere}
    ),
    merged as (
      select k, sum(order_count) as order_count, sum(paid_orders) as paid_orders, sum(total_spent) as total_spent,
             max(last_order_at) as last_order_at, max(last_order_id) as last_order_id,
             min(first_order_number) as first_order_number
      from everyone group by k
    )`;
}

export interface CustomerRowData {
  k: string;
  order_count: number | string;
  paid_orders: number | string;
  total_spent: number | string;
  last_order_at: string | null;
  first_order_number: number | string | null;
  account_id: number | null;
  account_firstname: string | null;
  account_lastname: string | null;
  account_created_at: string | null;
  account_verified_at: string | null;
  account_erased_at: string | null;
  order_firstname: string | null;
  order_lastname: string | null;
}

const orderings = {
  recent: sql`coalesce(m.last_order_id, 0) desc, m.k`,
  spent: sql`m.total_spent desc, coalesce(m.last_order_id, 0) desc, m.k`,
  email: sql`m.k`,
};

export async function listCustomerRows(
  db: Kysely<Database>,
  selection: CustomerSelection,
  page: { sort: keyof typeof orderings; limit: number; offset: number },
): Promise<{ rows: CustomerRowData[]; total: number }> {
  const cte = customersCte(selection);
  const rows = await sql<CustomerRowData>`${cte}
    select m.k, m.order_count, m.paid_orders, m.total_spent, m.last_order_at, m.first_order_number,
           a.id as account_id, a.firstname as account_firstname, a.lastname as account_lastname,
           a.created_at as account_created_at, a.verified_at as account_verified_at, a.erased_at as account_erased_at,
           lo.firstname as order_firstname, lo.lastname as order_lastname
    from merged m
    left join customers a on lower(a.email) = m.k
    left join orders lo on lo.id = m.last_order_id
    order by ${orderings[page.sort]}
    limit ${page.limit} offset ${page.offset}`.execute(db);
  const counted = await sql<{ n: number | string }>`${cte} select count(*) as n from merged`.execute(db);
  return { rows: rows.rows, total: Number(counted.rows[0]?.n ?? 0) };
}

/** The customer a reference names: an account's address, or the customer an order belongs to. */
export async function keyOfRef(db: Kysely<Database>, ref: { account: number } | { order: number }) {
  const found =
    'account' in ref
      ? await sql<{ k: string }>`select lower(email) as k from customers where id = ${ref.account}`.execute(db)
      : await sql<{ k: string }>`select ${keyOfOrder} as k from orders o left join customers c on c.id = o.customer_id
          where o.order_number = ${ref.order}`.execute(db);
  return found.rows[0]?.k;
}

/** Every order of a customer (an address), newest first. */
export function findOrdersOfKey(db: Kysely<Database>, key: string) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(
          'customer_id',
          'in',
          eb
            .selectFrom('customers')
            .select('id')
            .where(sql<string>`lower(email)`, '=', key),
        ),
        eb.and([eb('customer_id', 'is', null), eb(sql<string>`lower(email)`, '=', key)]),
      ]),
    )
    .orderBy('id', 'desc')
    .execute();
}
