import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.repository.ts';
import { cancellationUndoneToShop, cancellationUndoneToShopper } from '../cancellation/cancellation-emails.ts';
import type { Database } from '../db/schema.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import { returnRefundNotMadeToShop } from '../returns/return-emails.ts';
import { findReturn, moveReturn } from '../returns/returns.repository.ts';
import { formatPence } from '../../contract/money.ts';
import {
  CANCELLATION_REQUEST_PREFIX,
  findRefundRequestUnits,
  returnOfRefundRequest,
} from './orders.admin-repository.ts';
import { findOrderById } from './orders.repository.ts';

/**
 * A refund the sweep learned was never made (docs/rules.md#refunds): its amount is given back by the
 * refund workflow's release, and here whatever waited on it is given back too, in the same
 * transaction, so it happens once. A shopper's cancellation is undone (its units are to send again)
 * and both sides told; a return goes back to received for staff to refund again, and the shop is
 * told; a staff refund, the shop is told. Each is audited as `order.refund-released`.
 */

export interface ReleasedRefundsOptions {
  /** The shop's new-order alert address, as the owner's settings stand; read before the transaction. */
  shopEmail: () => Promise<string>;
  publicUrl: string;
}

/** Who released it in the audit log: no member, the shop's own check. */
const SWEEP = { id: null, email: 'refund check' } as const;

type Request = { id: number; order_id: number; amount: number; request_id: string };

/** The follow-up for one released request, its reads made before the transaction it runs in. */
export async function releasedRefundFollowUp(
  options: ReleasedRefundsOptions,
  request: Request,
): Promise<(trx: Kysely<Database>, at: string) => Promise<void>> {
  const shopEmail = await options.shopEmail();
  const returnId = returnOfRefundRequest(request.request_id);
  const refundFor = request.request_id.startsWith(CANCELLATION_REQUEST_PREFIX)
    ? 'cancellation'
    : returnId !== undefined
      ? 'return'
      : 'refund';
  return async (trx, at) => {
    const order = await findOrderById(trx, request.order_id);
    const adminOrder = `${options.publicUrl}/admin/orders/${order.order_number}`;
    await recordAudit(trx, {
      staff: SWEEP,
      action: 'order.refund-released',
      entityType: 'order',
      entityId: order.order_number,
      before: { refundedTotal: order.refunded_total + request.amount },
      after: { refundedTotal: order.refunded_total, amount: request.amount, refundFor },
      at,
    });
    if (refundFor === 'cancellation') {
      const units = (await findRefundRequestUnits(trx, request.id)).map((unit) => ({
        title: unit.title,
        sizeName: unit.size_name,
        quantity: unit.quantity,
      }));
      const undone = { orderNumber: order.order_number, units, amount: request.amount };
      await insertMail(trx, cancellationUndoneToShopper(order, undone), at);
      await insertMail(trx, cancellationUndoneToShop(shopEmail, undone, adminOrder), at);
      return;
    }
    if (returnId !== undefined) {
      const row = await findReturn(trx, returnId);
      const reopened = await moveReturn(trx, returnId, ['refunded'], {
        status: 'received',
        refunded_at: null,
        refund_amount: null,
        deduction: 0,
        deduction_reason: null,
      });
      if (!row || !reopened) return;
      await recordAudit(trx, {
        staff: SWEEP,
        action: 'return.refund-released',
        entityType: 'return',
        entityId: row.ra_number,
        before: { status: 'refunded', amount: request.amount },
        after: { status: 'received' },
        at,
      });
      await insertMail(
        trx,
        returnRefundNotMadeToShop(
          shopEmail,
          { raNumber: row.ra_number, orderNumber: order.order_number, amount: request.amount },
          `${options.publicUrl}/admin/returns`,
        ),
        at,
      );
      return;
    }
    await insertMail(
      trx,
      {
        to: shopEmail,
        subject: `Order ${order.order_number}: the refund of ${formatPence(request.amount)} was not made`,
        paragraphs: [
          `The payment provider has no record of the ${formatPence(request.amount)} refund asked for on order ${order.order_number}, so nothing was refunded and any units it would have put back were not.`,
          'Refund it again if it is still owed.',
          `The order: ${adminOrder}`,
        ],
      },
      at,
    );
  };
}
