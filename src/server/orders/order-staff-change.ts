import type { Kysely, Selectable } from 'kysely';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database, OrderTable } from '../db/schema.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import { findOrderByNumber } from './orders.admin-repository.ts';

/**
 * What every staff change to an order shares (docs/back-office.md#orders): finding the order,
 * refusing in the back office's words, and one transaction holding the lifecycle's move with its
 * audit entry and whatever else must land with it (a customer's e-mail), or none of it.
 */

export type Order = Selectable<OrderTable>;

export interface StaffChangeContext {
  db: Kysely<Database>;
  /** The time a change is made at, as ISO text (the system's clock unless a test gives its own). */
  now: () => string;
}

export async function orderOrThrow(db: Kysely<Database>, orderNumber: number): Promise<Order> {
  const order = await findOrderByNumber(db, orderNumber);
  if (!order) throw new NotFoundError(`There is no order ${orderNumber}`);
  return order;
}

export function refuseChange(message: string): never {
  throw new RefusedError(409, errorCodes.conflict, message);
}

/** The order's state an audit entry records before a change. */
export function auditedState(order: Order) {
  return { status: order.status, fulfilment: order.fulfilment, refundedTotal: order.refunded_total };
}

/** One staff change: the move, its audit entry and what else must land with it, or none of it. */
export async function staffChange(
  { db, now }: StaffChangeContext,
  orderNumber: number,
  staff: Staff,
  action: string,
  move: (trx: Kysely<Database>, order: Order, at: string) => Promise<{ after: object } | { refused: string }>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const order = await orderOrThrow(trx, orderNumber);
    const at = now();
    const result = await move(trx, order, at);
    if ('refused' in result) refuseChange(result.refused);
    await recordAudit(trx, {
      staff,
      action,
      entityType: 'order',
      entityId: order.order_number,
      before: auditedState(order),
      after: result.after,
      at,
    });
  });
}
