import type { Kysely } from 'kysely';
import type {
  Voucher,
  VoucherDetail,
  VoucherFields,
  VoucherList,
  VoucherListQuery,
} from '../../contract/admin/vouchers.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import { summaryOf } from '../orders/orders.admin-service.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  codeTaken,
  findVoucher,
  hasUses,
  insertVoucher,
  listVouchers,
  updateVoucher,
  voucherUses,
  type VoucherRow,
  type VoucherValues,
} from './vouchers.admin-repository.ts';

/**
 * Vouchers in the back office (docs/back-office.md#vouchers). Codes are stored upper-case, as the
 * basket looks them up (basket.service.ts), and unique in any case. Staff never write times_used:
 * checkouts count uses and expiries give them back, at the same time as staff edit.
 */

const USES_SHOWN = 100;

function refuse(message: string): never {
  throw new RefusedError(409, errorCodes.conflict, message);
}

/** A UTC day's first and last moment, as the pricing compares them (pricing.ts voucherOutcome). */
function valuesOf(fields: VoucherFields): VoucherValues {
  return {
    code: fields.code,
    kind: fields.kind,
    amount: fields.amount,
    min_spend: fields.minSpend,
    valid_from: `${fields.validFrom}T00:00:00.000Z`,
    valid_to: `${fields.validTo}T23:59:59.999Z`,
    usage_limit: fields.usageLimit,
    active: fields.active ? 1 : 0,
  };
}

export function voucherView(row: VoucherRow): Voucher {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    amount: row.amount,
    minSpend: row.min_spend,
    validFrom: row.valid_from.slice(0, 10),
    validTo: row.valid_to.slice(0, 10),
    usageLimit: row.usage_limit,
    timesUsed: row.times_used,
    active: row.active === 1,
  };
}

/** The fields an audit entry compares, without times_used (staff never change it). */
function audited(voucher: Voucher) {
  const { id: _id, timesUsed: _timesUsed, ...fields } = voucher;
  return fields;
}

export function createVouchersAdminService(db: Kysely<Database>, options: { now?: () => Date } = {}) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  async function rowOrThrow(id: number, trx: Kysely<Database> = db): Promise<VoucherRow> {
    const row = await findVoucher(trx, id);
    if (!row) throw new NotFoundError(`There is no voucher ${id}`);
    return row;
  }

  /** The same code in another case is the same code to a shopper. */
  async function refuseTakenCode(trx: Kysely<Database>, code: string, exceptId?: number): Promise<void> {
    if (await codeTaken(trx, code, exceptId)) refuse(`Another voucher already has the code ${code}.`);
  }

  /** A unique index backs the check above when two staff save the same code at once. */
  async function orTakenCode<T>(code: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) refuse(`Another voucher already has the code ${code}.`);
      throw error;
    }
  }

  async function detail(id: number): Promise<VoucherDetail> {
    const row = await rowOrThrow(id);
    const uses = await voucherUses(db, row.code, USES_SHOWN);
    return {
      ...voucherView(row),
      uses: uses.orders.map((order) => ({ ...summaryOf(order), discount: order.discount_amount })),
      useCount: uses.total,
    };
  }

  return {
    async list(query: VoucherListQuery & { page: number; pageSize: number }): Promise<VoucherList> {
      const { rows, total } = await listVouchers(db, {
        q: query.q,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { vouchers: rows.map(voucherView), total, page: query.page, pageSize: query.pageSize };
    },

    detail,

    async create(fields: VoucherFields, staff: Staff): Promise<VoucherDetail> {
      const id = await orTakenCode(fields.code, () =>
        db.transaction().execute(async (trx) => {
          await refuseTakenCode(trx, fields.code);
          const newId = await insertVoucher(trx, valuesOf(fields));
          const created = voucherView(await rowOrThrow(newId, trx));
          await recordAudit(trx, {
            staff,
            action: 'voucher.create',
            entityType: 'voucher',
            entityId: newId,
            after: audited(created),
            at: now(),
          });
          return newId;
        }),
      );
      return detail(id);
    },

    /**
     * Edits a voucher, perhaps while shoppers are using it: one conditional update that leaves
     * times_used alone, refused when the new usage limit is below the uses counted so far, or when
     * a used voucher's code would change.
     */
    async update(id: number, fields: VoucherFields, staff: Staff): Promise<VoucherDetail> {
      await orTakenCode(fields.code, () =>
        db.transaction().execute(async (trx) => {
          const before = await rowOrThrow(id, trx);
          await refuseTakenCode(trx, fields.code, id);
          if (!(await updateVoucher(trx, id, valuesOf(fields)))) {
            const current = await rowOrThrow(id, trx);
            if (fields.usageLimit !== null && current.times_used > fields.usageLimit) {
              refuse(
                `This voucher has been used ${current.times_used} times, so its usage limit cannot be lower than ${current.times_used}.`,
              );
            }
            if (current.code !== fields.code && (current.times_used > 0 || (await hasUses(trx, current.code)))) {
              refuse(
                `The code of a voucher that has been used cannot change: orders name ${current.code}. Make a new voucher instead.`,
              );
            }
            refuse('The voucher changed while you were editing it. Please try again.');
          }
          await recordAudit(trx, {
            staff,
            action: 'voucher.update',
            entityType: 'voucher',
            entityId: id,
            before: audited(voucherView(before)),
            after: audited(voucherView(await rowOrThrow(id, trx))),
            at: now(),
          });
        }),
      );
      return detail(id);
    },
  };
}

export type VouchersAdminService = ReturnType<typeof createVouchersAdminService>;
