import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, VoucherTable } from '../db/schema.ts';

/** Vouchers' SQL for the back office (docs/back-office.md#vouchers). Writes take the caller's transaction. */

export type VoucherRow = Selectable<VoucherTable>;
/** What staff set; times_used is never among it (only checkouts and their give-backs move it). */
export type VoucherValues = Omit<Insertable<VoucherTable>, 'id' | 'times_used'>;

export async function listVouchers(
  db: Kysely<Database>,
  filter: { q?: string | undefined; limit: number; offset: number },
) {
  let rows = db.selectFrom('vouchers').selectAll();
  let count = db.selectFrom('vouchers').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (filter.q) {
    const pattern = `%${filter.q.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    rows = rows.where(sql<boolean>`upper(code) like ${pattern} escape '\\'`);
    count = count.where(sql<boolean>`upper(code) like ${pattern} escape '\\'`);
  }
  const [page, total] = await Promise.all([
    rows.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: page, total: Number(total.n) };
}

export function findVoucher(db: Kysely<Database>, id: number) {
  return db.selectFrom('vouchers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Another voucher whose code is this one in any case. */
export async function codeTaken(db: Kysely<Database>, code: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('vouchers')
    .select('id')
    .where(sql<boolean>`upper(code) = ${code.toUpperCase()}`);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertVoucher(trx: Kysely<Database>, values: VoucherValues): Promise<number> {
  const row = await trx.insertInto('vouchers').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Updates a voucher in one conditional statement, never touching times_used: the new usage limit
 * must not be below the uses counted at that moment, and a used voucher keeps its code (orders and
 * their give-backs name it). Answers whether it was updated.
 */
export async function updateVoucher(
  trx: Kysely<Database>,
  id: number,
  values: Updateable<VoucherTable> & VoucherValues,
): Promise<boolean> {
  const limit = values.usage_limit;
  const result = await trx
    .updateTable('vouchers')
    .set({
      code: values.code,
      kind: values.kind,
      amount: values.amount,
      min_spend: values.min_spend,
      valid_from: values.valid_from,
      valid_to: values.valid_to,
      usage_limit: values.usage_limit,
      active: values.active,
    })
    .where('id', '=', id)
    .where((eb) => (limit === null || limit === undefined ? sql<boolean>`1 = 1` : eb('times_used', '<=', limit)))
    .where((eb) =>
      eb.or([
        eb('code', '=', values.code),
        eb.and([
          eb('times_used', '=', 0),
          eb.not(
            eb.exists(
              eb.selectFrom('orders').select('orders.id').whereRef('orders.voucher_code', '=', 'vouchers.code'),
            ),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether any order names this code (the uses that keep a code from changing). */
export async function hasUses(db: Kysely<Database>, code: string): Promise<boolean> {
  return (
    (await db.selectFrom('orders').select('id').where('voucher_code', '=', code).limit(1).executeTakeFirst()) !==
    undefined
  );
}

/** The orders that used a code, newest first, and how many in all. */
export async function voucherUses(db: Kysely<Database>, code: string, limit: number) {
  const [orders, count] = await Promise.all([
    db.selectFrom('orders').selectAll().where('voucher_code', '=', code).orderBy('id', 'desc').limit(limit).execute(),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('voucher_code', '=', code)
      .executeTakeFirstOrThrow(),
  ]);
  return { orders, total: Number(count.n) };
}
