import type { z } from 'zod';
import type { Kysely } from 'kysely';
import type { deliveryDetailsSchema, FulfilmentRequest } from '../../contract/admin/orders.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { BadRequestError, RefusedError } from '../errors.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import {
  dispatchEmail,
  linesWithPhotos,
  orderConfirmationEmail,
  readyForCollectionEmail,
} from '../payments/order-emails.ts';
import type { Database } from '../db/schema.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  cancelOrder,
  changeDeliveryDetails,
  collectOrder,
  deliverOrder,
  dispatchLines,
  fulfilmentMoves,
  makeReadyForCollection,
  type OfferedFulfilmentAction,
} from './order-lifecycle.ts';
import { findPaymentOrder, findPaymentOrderLines, type PaymentOrder } from './order-payments.ts';
import { findCancelledUnits, hasLabelWaiting } from './orders.admin-repository.ts';
import { refuseChange, staffChange, type Order, type StaffChangeContext } from './order-staff-change.ts';
import { trackingUrlFor } from './tracking-links.ts';

const EMAIL_CHANGE_REFUSED =
  "Only a member who may see customers, refund or cancel may change the customer's e-mail address.";

/**
 * Staff moving an order on (docs/back-office.md#orders): dispatch, delivery and cancellation,
 * each a lifecycle move (order-lifecycle.ts) in one transaction with its audit entry and, for a
 * dispatch, the customer's e-mail; and working an order by hand: a note, new delivery details
 * before dispatch, the confirmation sent again.
 */
export function createOrderMoves(
  context: StaffChangeContext,
  options: {
    onOrderEvent?: (event: 'cancelled') => void;
    /** The signed link to an order's VAT invoice, for the confirmation sent again. */
    invoiceUrl?: (orderNumber: number, linkVersion: number) => string;
  },
) {
  return {
    /** A note staff keep on the order: in its timeline and the audit log, never shown to the customer. */
    note(orderNumber: number, note: string, staff: Staff): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.note', async () => ({ after: { note } }));
    },

    /** New delivery details while something is still to send, checked as checkout checks them; audited. */
    changeDeliveryDetails(
      orderNumber: number,
      details: z.output<typeof deliveryDetailsSchema>,
      staff: Staff,
    ): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.delivery-details', async (trx, order, at) => {
        // The order's link goes to its e-mail address, and the link may cancel it: whoever may point
        // it elsewhere must be one who may cancel, refund or see customers already (an outside attack:
        // a packer took an order's link this way and cancelled it).
        const newAddress = details.email.trim().toLowerCase() !== order.email.trim().toLowerCase();
        if (newAddress && !staff.permissions.some((held) => ['customers', 'refund', 'cancel'].includes(held)))
          throw new RefusedError(403, errorCodes.forbidden, EMAIL_CHANGE_REFUSED, 'email');
        // A label bought for the old address would still be printed and sent with (an outside attack).
        if (await hasLabelWaiting(trx, order.id))
          throw new RefusedError(
            409,
            errorCodes.conflict,
            'This order has a shipping label to its address: cancel the label on the labels page first, then change the address.',
          );
        const deliveryAddress = {
          line1: details.deliveryAddress.line1,
          line2: details.deliveryAddress.line2 ?? '',
          line3: details.deliveryAddress.line3 ?? '',
          townCity: details.deliveryAddress.townCity,
          // Kept in capitals, as checkout keeps them (order-rows.ts).
          postcode: details.deliveryAddress.postcode.toUpperCase(),
        };
        if (!(await changeDeliveryDetails(trx, order.id, { ...details, deliveryAddress }, at)))
          return {
            // The row as read: it may have left (or been cancelled) since, which is what refused it.
            refused: ['cancelled', 'expired'].includes(order.status)
              ? 'A cancelled or expired order’s details cannot be changed.'
              : order.delivery_kind === 'collection'
                ? 'This order is ready for collection: its details can no longer be changed.'
                : 'This order has been dispatched: its delivery details can no longer be changed.',
          };
        return {
          after: {
            deliveryAddress,
            contactNumber: details.contactNumber,
            email: details.email,
            was: {
              deliveryAddress: {
                line1: order.delivery_line1,
                line2: order.delivery_line2,
                line3: order.delivery_line3,
                townCity: order.delivery_town_city,
                postcode: order.delivery_postcode,
              },
              contactNumber: order.contact_number,
              email: order.email,
            },
          },
        };
      });
    },

    /** The order confirmation e-mail, sent again (to the order's address as it is now). */
    resendConfirmation(orderNumber: number, staff: Staff): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.resend-confirmation', async (trx, order, at) => {
        if (order.status !== 'paid') return { refused: 'Only a paid order has a confirmation to send.' };
        if (order.refunded_total >= order.total_including_delivery)
          return { refused: 'This order has been refunded in full: there is no confirmation to send.' };
        const paid = (await findPaymentOrder(trx, { id: order.id })) as PaymentOrder;
        const lines = await linesWithPhotos(trx, await findPaymentOrderLines(trx, order.id));
        await insertMail(
          trx,
          orderConfirmationEmail(paid, lines, options.invoiceUrl?.(order.order_number, paid.link_version)),
          at,
        );
        return { after: { to: order.email } };
      });
    },

    /**
     * Dispatch a fulfilment: the chosen units (every unit still to send by default) in tracked
     * parcels or untracked, with the customer's e-mail queued with it. `alongside` runs in the same
     * transaction once the fulfilment is made (a shipping label marked sent with it), so both land or neither.
     */
    dispatch(
      orderNumber: number,
      toSend: FulfilmentRequest,
      staff: Staff,
      alongside?: (trx: Kysely<Database>, fulfilmentId: number) => Promise<void>,
    ): Promise<void> {
      const parcels = toSend.parcels?.map((parcel) => ({
        carrier: parcel.carrier.trim(),
        trackingNumber: parcel.trackingNumber.trim(),
      }));
      return staffChange(context, orderNumber, staff, 'order.dispatch', async (trx, order, at) => {
        const done = await dispatchLines(trx, order.id, { ...toSend, parcels }, staff, at);
        if ('refused' in done) {
          // The shopper cancelled units meanwhile (a cancellation racing this dispatch): say which.
          const cancelled = ['cannot move', 'more than remains'].includes(done.refused)
            ? await findCancelledUnits(trx, order.id)
            : [];
          if (cancelled.length > 0)
            refuseChange(
              `The customer has cancelled ${cancelled.map((line) => `${Number(line.quantity)} x ${line.title} (${line.size_name})`).join(', ')}: do not send ${cancelled.length === 1 && Number(cancelled[0]!.quantity) === 1 ? 'it' : 'them'}. Check what is left to dispatch.`,
            );
          switch (done.refused) {
            case 'cannot move':
              return { refused: fulfilmentRefusal(order, 'dispatch') };
            case 'nothing left to send':
              return { refused: 'Everything on this order has been dispatched: there is nothing left to send.' };
            case 'nothing chosen':
              throw new BadRequestError('Please choose at least one unit to dispatch', 'lines');
            case 'no such line':
              throw new BadRequestError('That line is not on this order', `lines.${done.index}.orderLineId`);
            case 'more than remains':
              throw new RefusedError(
                409,
                errorCodes.conflict,
                `Only ${done.line.quantity} of ${done.line.title} (${done.line.sizeName}) ${done.line.quantity === 1 ? 'is' : 'are'} left to dispatch.`,
                `lines.${done.index}.quantity`,
              );
          }
        }
        const withLinks = (parcels ?? []).map((parcel) => ({
          ...parcel,
          trackingUrl: trackingUrlFor(parcel.carrier, parcel.trackingNumber),
        }));
        const untrackedService = toSend.untracked?.service ?? null;
        await alongside?.(trx, done.fulfilmentId);
        await insertMail(
          trx,
          dispatchEmail(order, { sent: done.sent, toCome: done.toCome, parcels: withLinks, untrackedService }),
          at,
        );
        return {
          after: {
            fulfilment: done.fulfilment,
            ...(withLinks[0] ? { carrier: withLinks[0].carrier, trackingNumber: withLinks[0].trackingNumber } : {}),
            parcels: parcels ?? [],
            ...(untrackedService ? { untracked: untrackedService } : {}),
            lines: done.sent.map((line) => ({ lineId: line.lineId, quantity: line.quantity })),
          },
        };
      });
    },

    deliver(orderNumber: number, staff: Staff): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.deliver', async (trx, order, at) =>
        (await deliverOrder(trx, order.id, at))
          ? { after: { fulfilment: 'delivered' } }
          : { refused: fulfilmentRefusal(order, 'deliver') },
      );
    },

    /** A collection order packed and waiting at the shop: the customer's e-mail queued with it. */
    readyForCollection(orderNumber: number, staff: Staff): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.ready-for-collection', async (trx, order, at) => {
        if (!(await makeReadyForCollection(trx, order.id, at)))
          return { refused: fulfilmentRefusal(order, 'ready-for-collection') };
        await insertMail(trx, readyForCollectionEmail(order), at);
        return { after: { fulfilment: 'ready_for_collection' } };
      });
    },

    collect(orderNumber: number, staff: Staff): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.collect', async (trx, order, at) =>
        (await collectOrder(trx, order.id, at))
          ? { after: { fulfilment: 'collected' } }
          : { refused: fulfilmentRefusal(order, 'collect') },
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

/** Why a fulfilment move was refused, from the order as read before it (a racing change may have moved it since). */
function fulfilmentRefusal(order: Order, action: OfferedFulfilmentAction): string {
  const move = fulfilmentMoves[action];
  const doing = {
    dispatch: 'dispatched',
    deliver: 'marked delivered',
    'ready-for-collection': 'made ready for collection',
    collect: 'marked collected',
  }[action];
  if (order.status !== 'paid') return `Only a paid order can be ${doing}.`;
  if (!(move.kinds as readonly string[]).includes(order.delivery_kind))
    return order.delivery_kind === 'collection'
      ? `This order is collected from the shop: it cannot be ${doing}.`
      : `This order is sent to the customer: it cannot be ${doing}.`;
  if (!(move.from as readonly string[]).includes(order.fulfilment))
    return `This order is ${order.fulfilment.replace(/_/g, ' ')}: it cannot be ${doing} now.`;
  if (!move.whileRefundedInFull && order.refunded_total >= order.total_including_delivery)
    return `This order has been refunded in full, so there is nothing to ${action === 'collect' ? 'hand over' : 'send'}.`;
  // Read before another change moved it on.
  return `This order has changed meanwhile: it cannot be ${doing} now.`;
}
