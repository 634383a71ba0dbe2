import type { DispatchInput } from '../../contract/admin/orders.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import { dispatchEmail } from '../payments/order-emails.ts';
import type { Staff } from '../staff/staff.service.ts';
import { cancelOrder, deliverOrder, dispatchOrder } from './order-lifecycle.ts';
import { staffChange, type Order, type StaffChangeContext } from './order-staff-change.ts';
import { trackingUrlFor } from './tracking-links.ts';

/**
 * Staff moving an order on (docs/back-office.md#orders): dispatch, delivery and cancellation,
 * each a lifecycle move (order-lifecycle.ts) in one transaction with its audit entry and, for a
 * dispatch, the customer's e-mail.
 */
export function createOrderMoves(
  context: StaffChangeContext,
  options: { onOrderEvent?: (event: 'cancelled') => void },
) {
  return {
    /** Dispatch: carrier and tracking number kept, and the customer's e-mail queued with it. */
    dispatch(orderNumber: number, parcel: DispatchInput, staff: Staff): Promise<void> {
      const carrier = parcel.carrier.trim();
      const trackingNumber = parcel.trackingNumber.trim();
      return staffChange(context, orderNumber, staff, 'order.dispatch', async (trx, order, at) => {
        if (!(await dispatchOrder(trx, order.id, { carrier, trackingNumber }, at))) {
          return { refused: dispatchRefusal(order) };
        }
        const trackingUrl = trackingUrlFor(carrier, trackingNumber);
        await insertMail(trx, dispatchEmail(order, { carrier, trackingNumber, trackingUrl }), at);
        return { after: { fulfilment: 'dispatched', carrier, trackingNumber } };
      });
    },

    deliver(orderNumber: number, staff: Staff): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.deliver', async (trx, order, at) =>
        (await deliverOrder(trx, order.id, at))
          ? { after: { fulfilment: 'delivered' } }
          : { refused: 'Only a dispatched order can be marked delivered.' },
      );
    },

    async cancel(orderNumber: number, reason: string | undefined, staff: Staff): Promise<void> {
      await staffChange(context, orderNumber, staff, 'order.cancel', async (trx, order, at) =>
        (await cancelOrder(trx, order.id, at))
          ? { after: { status: 'cancelled', ...(reason ? { reason } : {}) } }
          : {
              refused:
                order.status === 'paid'
                  ? 'A paid order cannot be cancelled; record a refund instead.'
                  : 'Only an order waiting for payment can be cancelled.',
            },
      );
      options.onOrderEvent?.('cancelled');
    },
  };
}

function dispatchRefusal(order: Order): string {
  if (order.status !== 'paid') return 'Only a paid order can be dispatched.';
  if (order.fulfilment !== 'unfulfilled') return 'This order has been dispatched already.';
  return 'This order has been refunded in full, so there is nothing to send.';
}
