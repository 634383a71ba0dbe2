import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Database, OrderTable } from '../db/schema.ts';
import { dialectOfHandle } from '../db/database.ts';

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

/** Which customers: all, those a search finds, or those with the given addresses. */
export type CustomerSelection = { all: true } | { search: string } | { keys: string[] };

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
      : 'keys' in selection
        ? // lower(), not a cast: a value with no affinity, as the expression indexes hold (SQLite).
          sql.join(
            selection.keys.map((key) => sql`select lower(${key})`),
            sql` union all `,
          )
        : sql`select null`;
  // An account's orders by customer_id, a guest's by address (migrations 0028 and 0011): two
  // branches, not one condition with an OR, so each is found through its own index.
  const guestsOf = narrowed ? sql`and lower(o.email) in (select k from matched)` : sql``;
  const accountsWhere = narrowed ? sql`where lower(email) in (select k from matched)` : sql``;
  const columns = sql`o.id, o.order_number, o.created_at, o.paid_at, o.total_including_delivery, o.refunded_total`;
  return sql`
    with matched(k) as (${matched}),
    owned as (
      select lower(c.email) as k, ${columns}
      -- The accounts first, then their orders by customer_id (SQLite takes a cross join's order as written).
      from customers c cross join orders o
      where o.customer_id = c.id ${narrowed ? sql`and lower(c.email) in (select k from matched)` : sql``}
      union all
      select lower(o.email) as k, ${columns}
      from orders o where o.customer_id is null ${guestsOf}
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

type Page = {
  sort: keyof typeof orderings;
  limit: number;
  offset: number;
  /** How many orders the walk by last order reads at a time (tests make it small). */
  walkBatch?: number;
};

/**
 * A page of customers and how many there are. A search, or the whole list by total spent, sums
 * the orders of every customer it covers, then takes the page; the whole list by last order or by
 * e-mail address first finds the page's addresses from the indexes alone, then sums only theirs.
 */
export async function listCustomerRows(
  db: Kysely<Database>,
  selection: CustomerSelection,
  page: Page,
): Promise<{ rows: CustomerRowData[]; total: number }> {
  if ('all' in selection && page.sort !== 'spent') {
    const [keys, total] = await Promise.all([
      page.sort === 'recent' ? keysByLastOrder(db, page) : keysByEmail(db, page),
      countEveryone(db),
    ]);
    if (keys.length === 0) return { rows: [], total };
    const { rows } = await summed(db, { keys }, { sort: page.sort, limit: keys.length, offset: 0 });
    return { rows, total };
  }
  return summed(db, selection, page);
}

async function summed(db: Kysely<Database>, selection: CustomerSelection, page: Page) {
  const cte = customersCte(selection);
  // The page is chosen from the sums alone, and only its rows are named and joined to their account.
  const rows = await sql<CustomerRowData & { total: number | string }>`${cte}
    select m.k, m.order_count, m.paid_orders, m.total_spent, m.last_order_at, m.first_order_number, m.total,
           a.id as account_id, a.firstname as account_firstname, a.lastname as account_lastname,
           a.created_at as account_created_at, a.verified_at as account_verified_at, a.erased_at as account_erased_at,
           lo.firstname as order_firstname, lo.lastname as order_lastname
    from (
      select m.*, count(*) over () as total from merged m
      order by ${orderings[page.sort]}
      limit ${page.limit} offset ${page.offset}
    ) m
    left join customers a on lower(a.email) = m.k
    left join orders lo on lo.id = m.last_order_id
    order by ${orderings[page.sort]}`.execute(db);
  if (rows.rows.length > 0 || page.offset === 0) {
    return { rows: rows.rows, total: Number(rows.rows[0]?.total ?? 0) };
  }
  // Past the last page: how many there are, for the pager.
  const counted = await sql<{ n: number | string }>`${cte} select count(*) as n from merged`.execute(db);
  return { rows: [], total: Number(counted.rows[0]?.n ?? 0) };
}

/**
 * Every customer: the addresses guests ordered with, and the accounts' (an account's orders placed
 * signed in under another address are its own). Read from the indexes of migrations 0011 and 0028.
 */
async function countEveryone(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ guests: number | string; accounts: number | string }>`
    select (select count(*) from (select 1 as one from orders where customer_id is null group by lower(email)) g) as guests,
           (select count(*) from customers c
             where not exists (select 1 from orders o where o.customer_id is null and lower(o.email) = lower(c.email))
           ) as accounts`.execute(db);
  return Number(rows[0]?.guests ?? 0) + Number(rows[0]?.accounts ?? 0);
}

/**
 * A page of addresses in order, from the two sides (guests' orders, accounts) each read in order
 * from its index: SQLite merges the two walks as they go; PostgreSQL, which would sort every
 * address for the union, takes the first offset + limit of each side, which hold those of both.
 */
async function keysByEmail(db: Kysely<Database>, page: Page): Promise<string[]> {
  const first = page.offset + page.limit;
  const { rows } =
    dialectOfHandle(db) === 'sqlite'
      ? await sql<{ k: string }>`
          select lower(email) as k from orders where customer_id is null
          union
          select lower(email) as k from customers
          order by 1
          limit ${page.limit} offset ${page.offset}`.execute(db)
      : await sql<{ k: string }>`
          select k from (
            select k from (
              select distinct lower(email) as k from orders where customer_id is null order by 1 limit ${first}
            ) g
            union
            select k from (select lower(email) as k from customers order by 1 limit ${first}) a
          ) x
          order by k
          limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => row.k);
}

const WALK_BATCH = 1_000;

/**
 * A page of customers by their last order, newest first: the orders are walked newest first (by
 * id) until enough different customers are found, so page 1 reads a few dozen orders and page N
 * about N pages' worth; the accounts that never ordered follow, by address.
 */
async function keysByLastOrder(db: Kysely<Database>, page: Page): Promise<string[]> {
  const wanted = page.offset + page.limit;
  const batch = page.walkBatch ?? WALK_BATCH;
  const seen = new Set<string>();
  let before: number | undefined;
  for (;;) {
    const { rows } = await sql<{ id: number; k: string }>`
      select o.id, coalesce(lower(c.email), lower(o.email)) as k
      from orders o left join customers c on c.id = o.customer_id
      ${before === undefined ? sql`` : sql`where o.id < ${before}`}
      order by o.id desc
      limit ${batch}`.execute(db);
    for (const row of rows) {
      seen.add(row.k);
      if (seen.size >= wanted) return [...seen].slice(page.offset);
    }
    if (rows.length < batch) break;
    before = rows.at(-1)!.id;
  }
  const fromOrders = [...seen].slice(page.offset);
  const { rows } = await sql<{ k: string }>`
    select lower(c.email) as k from customers c
    where not exists (select 1 from orders o where o.customer_id = c.id)
      and not exists (select 1 from orders o where o.customer_id is null and lower(o.email) = lower(c.email))
    order by 1
    limit ${page.limit - fromOrders.length}
    offset ${Math.max(0, page.offset - seen.size)}`.execute(db);
  return [...fromOrders, ...rows.map((row) => row.k)];
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

/** Every order of a customer (an address), newest first: an account's, and a guest's, each by its index. */
export async function findOrdersOfKey(db: Kysely<Database>, key: string): Promise<Array<Selectable<OrderTable>>> {
  const [signedIn, asGuest] = await Promise.all([
    // The account first, then its orders (SQLite takes a cross join's order as written).
    sql<Selectable<OrderTable>>`select o.* from customers c cross join orders o
      where lower(c.email) = ${key} and o.customer_id = c.id`.execute(db),
    db
      .selectFrom('orders')
      .selectAll()
      .where('customer_id', 'is', null)
      .where(sql<string>`lower(email)`, '=', key)
      .execute(),
  ]);
  return [...signedIn.rows, ...asGuest].sort((a, b) => b.id - a.id);
}
