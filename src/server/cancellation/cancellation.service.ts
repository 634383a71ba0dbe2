import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  cancellationRefund,
  type CancellationOptions,
  type CancellationRequest,
  type CancellationResult,
} from '../../contract/cancellation.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { formatPence } from '../../contract/money.ts';
import { isRefundedInFull } from '../../contract/order-status.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import {
  cancellingAllowed,
  refundThroughProvider,
  unitsToCancel,
  type RefundingProvider,
} from '../orders/order-lifecycle.ts';
import { orderOfLinkKey, type OrderLinks } from '../orders/order-links.ts';
import {
  CANCELLATION_REQUEST_PREFIX,
  findOrderLinesWithRestocked,
  goodsTakenBack,
  hasPendingCancellation,
} from '../orders/orders.admin-repository.ts';
import { findOrderById, findOrderLinkVersion, type OrderRow } from '../orders/orders.repository.ts';
import { cancellationAlertToShop, cancellationEmailToShopper, type CancellationMail } from './cancellation-emails.ts';

/**
 * Cancelling before dispatch from the customer's order page (docs/rules.md#cancelling-before-dispatch):
 * the shopper cancels the whole order or some units still to send; the refund goes through the
 * provider at once by the lifecycle's one refund workflow (ADR 0013), the units go back in stock,
 * and both sides are e-mailed. The units are checked still to send after the order's row is taken
 * (reserveRefund), so a cancellation racing a dispatch of them has exactly one outcome.
 */

/** A key that opens no order: one answer for wrong, revoked and guessed keys. */
const NO_SUCH_ORDER = 'There is no such order.';

/** What the shopper is told when the units left while they were choosing (the race lost). */
export const JUST_SENT =
  'Sorry, your order has just been sent, so it can no longer be cancelled. You can return it once it arrives: see the order page for how.';

/** What the shopper is told when the units were cancelled while they were choosing (another tab). */
export const CANCELLED_ALREADY =
  'These items are cancelled already (perhaps from another window a moment ago): your order page shows what is left.';

/** While an earlier cancellation's refund waits for the provider: nothing more is cancelled. */
const STILL_CONFIRMING =
  'The refund for the items you cancelled is still being confirmed by your payment provider. You can cancel more once it is, usually within the hour; we will e-mail you.';

const CONTACT_US = 'This order cannot be cancelled online. Please contact us and we will cancel it for you.';

type Provider = Required<Pick<RefundingProvider, 'refund'>> & RefundingProvider;
type Line = Awaited<ReturnType<typeof findOrderLinesWithRestocked>>[number];

const refundsToOf = (provider: string | null) =>
  provider === 'paypal' || provider === 'paypal-checkout'
    ? 'to your PayPal account'
    : provider === 'opayo'
      ? 'to the card you paid with'
      : 'the way you paid';

export function createCancellations(
  db: Kysely<Database>,
  options: {
    links: OrderLinks;
    providerOf: (id: string | null) => RefundingProvider | undefined;
    /**
     * The shop's new-order alert address (whoever packs orders) as the owner's settings stand now;
     * read before any transaction opens.
     */
    shopEmail: () => Promise<string>;
    publicUrl: string;
    now: () => string;
  },
) {
  async function orderIdOf(key: string): Promise<number> {
    const orderId = await orderOfLinkKey(options.links, key, (orderNumber) => findOrderLinkVersion(db, orderNumber));
    if (orderId === undefined) throw new NotFoundError(NO_SUCH_ORDER);
    return orderId;
  }

  function refunder(order: OrderRow): Provider | undefined {
    const provider = options.providerOf(order.payment_provider);
    return provider?.refund && (provider.canRefund?.(order) ?? true) ? (provider as Provider) : undefined;
  }

  /** Why nothing may be cancelled, in the shopper's words; undefined when something may. */
  function whyNot(order: OrderRow, lines: readonly Line[], pending: boolean): string | undefined {
    if (order.status !== 'paid') return 'Only a paid order can be cancelled.';
    const refundable = {
      status: order.status,
      total: order.total_including_delivery,
      refundedTotal: order.refunded_total,
    };
    if (isRefundedInFull(refundable)) return 'This order has been refunded in full.';
    if (!cancellingAllowed(order))
      return order.delivery_kind === 'collection'
        ? 'Your order is ready for collection, so it can no longer be cancelled. You can return it once you have collected it.'
        : 'Your order has been sent, so it can no longer be cancelled. You can return it once it arrives.';
    if (!order.holds_stock || !refunder(order)) return CONTACT_US;
    // What is left, its voucher share and whether it is the whole order all hang on that refund:
    // if it was never made, the sweep undoes that cancellation.
    if (pending) return STILL_CONFIRMING;
    if (!lines.some((line) => unitsToCancel(line) > 0))
      return 'Everything still to come is already being refunded, or has been sent.';
    return undefined;
  }

  const pricingOf = async (order: OrderRow) => ({
    itemsTotal: order.items_total,
    discount: order.discount_amount,
    deliveryPrice: order.delivery_price,
    leftToRefund: Math.max(0, order.total_including_delivery - order.refunded_total),
    goodsTakenBack: await goodsTakenBack(db, order.id),
  });

  /** Whether cancelling every unit still to send cancels the whole order: nothing sent, nothing held. */
  const wholeIsOpen = (lines: readonly Line[]) =>
    lines.every((line) => line.dispatched === 0 && unitsToCancel(line) === line.quantity - Number(line.restocked));

  async function read(key: string) {
    const orderId = await orderIdOf(key);
    const order = await findOrderById(db, orderId);
    const lines = await findOrderLinesWithRestocked(db, orderId);
    return { order, lines, pending: await hasPendingCancellation(db, orderId) };
  }

  /** The audit entry and the e-mails, in the transaction that records the refund (or its request). */
  async function recordCancellation(
    trx: Kysely<Database>,
    order: OrderRow,
    mail: CancellationMail,
    at: string,
    shopEmail: string,
  ) {
    await recordAudit(trx, {
      staff: { id: null, email: order.email },
      action: 'order.cancel-by-customer',
      entityType: 'order',
      entityId: order.order_number,
      after: {
        whole: mail.whole,
        amount: mail.amount,
        refund: mail.pending ? 'pending' : 'refunded',
        cancelled: mail.cancelled,
      },
      at,
    });
    // A refund made at once has its e-mail already, naming the cancellation and its units
    // (issueCreditNoteFor): the shopper is told once. Only a refund still to be confirmed needs
    // this one, to say the cancellation is done and the money on its way.
    if (mail.pending) await insertMail(trx, cancellationEmailToShopper(order, mail), at);
    await insertMail(
      trx,
      cancellationAlertToShop(shopEmail, order, mail, `${options.publicUrl}/admin/orders/${order.order_number}`),
      at,
    );
  }

  return {
    /** GET /api/order-page/:key/cancellation: what may still be cancelled and what it would refund. */
    async options(key: string): Promise<CancellationOptions> {
      const { order, lines, pending } = await read(key);
      const refused = whyNot(order, lines, pending);
      const pricing = await pricingOf(order);
      const cancellable = lines.map((line) => ({
        lineId: line.id,
        title: line.title,
        sizeName: line.size_name,
        quantity: line.quantity,
        unitPrice: line.unit_price,
        cancellableUnits: refused === undefined ? unitsToCancel(line) : 0,
      }));
      return {
        orderNumber: order.order_number,
        cancellable: refused === undefined,
        notCancellable: refused ?? null,
        lines: cancellable,
        pricing,
        wholeOrderRefund:
          refused === undefined && wholeIsOpen(lines)
            ? cancellationRefund(
                pricing,
                cancellable.map((line) => ({ unitPrice: line.unitPrice, quantity: line.cancellableUnits })),
                true,
              )
            : null,
        refundsTo: refundsToOf(order.payment_provider),
      };
    },

    /** POST /api/order-page/:key/cancellation: the whole order, or some units of some lines. */
    async cancel(key: string, request: CancellationRequest): Promise<CancellationResult> {
      const { order, lines, pending: earlier } = await read(key);
      const refused = whyNot(order, lines, earlier);
      if (refused !== undefined) throw new RefusedError(409, errorCodes.conflict, refused);
      const shopEmail = await options.shopEmail();
      const provider = refunder(order)!;
      let chosen: Array<{ line: Line; quantity: number }>;
      if (request.whole) {
        if (!wholeIsOpen(lines))
          throw new RefusedError(
            409,
            errorCodes.conflict,
            lines.some((line) => line.dispatched > 0)
              ? 'Part of your order has been sent already, so it cannot all be cancelled: choose the items still to come.'
              : CANCELLED_ALREADY,
          );
        chosen = lines.map((line) => ({ line, quantity: unitsToCancel(line) })).filter((one) => one.quantity > 0);
      } else {
        chosen = [];
        for (const [index, asked] of (request.lines ?? []).entries()) {
          const line = lines.find((one) => one.id === asked.lineId);
          if (!line) throw new BadRequestError('That item is not on this order', `lines.${index}.lineId`);
          if (asked.quantity > line.quantity)
            throw new BadRequestError(
              `At most ${line.quantity} of ${line.title} can be cancelled`,
              `lines.${index}.quantity`,
            );
          // Units no longer to come were either sent or cancelled (put back, or held by a refund in
          // flight): the shopper is told which, since another tab may have cancelled them a moment ago.
          if (asked.quantity > unitsToCancel(line))
            throw new RefusedError(
              409,
              errorCodes.conflict,
              asked.quantity > line.quantity - line.dispatched ? JUST_SENT : CANCELLED_ALREADY,
            );
          chosen.push({ line, quantity: asked.quantity });
        }
      }
      // Every unit still to come chosen, from an order nothing has left: that is the whole order.
      const whole =
        wholeIsOpen(lines) &&
        lines.every((line) => (chosen.find((one) => one.line.id === line.id)?.quantity ?? 0) === unitsToCancel(line));
      const amount = cancellationRefund(
        await pricingOf(order),
        chosen.map((one) => ({ unitPrice: one.line.unit_price, quantity: one.quantity })),
        whole,
      );
      const refundsTo = refundsToOf(order.payment_provider);
      const cancelled = chosen.map((one) => ({
        lineId: one.line.id,
        title: one.line.title,
        sizeName: one.line.size_name,
        quantity: one.quantity,
      }));
      const mail = (pending: boolean): CancellationMail => ({
        orderNumber: order.order_number,
        whole,
        cancelled,
        amount,
        refundsTo,
        pending,
      });
      const answer = await refundThroughProvider(
        db,
        provider,
        {
          orderId: order.id,
          amount,
          requestId: `${CANCELLATION_REQUEST_PREFIX}${randomUUID()}`,
          note: whole ? 'Order cancelled by the customer' : 'Items cancelled by the customer',
          restock: chosen.map((one) => ({ lineId: one.line.id, quantity: one.quantity })),
          unsentOnly: true,
        },
        {
          now: options.now,
          onRefunded: (trx, current, at) => recordCancellation(trx, current, mail(false), at, shopEmail),
        },
      );
      if ('refused' in answer) {
        if (answer.refused === 'not held') throw new RefusedError(409, errorCodes.conflict, CONTACT_US);
        // Taken by something that landed first while the order's row was waited for: a dispatch
        // sent the units, or another cancellation (another tab) took them; the lines now say which.
        const now = await findOrderLinesWithRestocked(db, order.id);
        const lineNow = (id: number) => now.find((line) => line.id === id);
        const sent = chosen.some((one) => (lineNow(one.line.id)?.dispatched ?? 0) > one.line.dispatched);
        const cancelledMeanwhile = chosen.some((one) => {
          const line = lineNow(one.line.id);
          return line !== undefined && unitsToCancel(line) < one.quantity;
        });
        throw new RefusedError(
          409,
          errorCodes.conflict,
          sent
            ? JUST_SENT
            : cancelledMeanwhile
              ? CANCELLED_ALREADY
              : 'Your order changed while you were choosing: please look at it again.',
        );
      }
      if (answer.outcome === 'refused')
        throw new RefusedError(
          409,
          errorCodes.conflict,
          'Your payment provider did not accept the refund, so nothing was cancelled. Please contact us and we will sort it out.',
        );
      if (answer.outcome === 'unknown')
        // The units stay held with the refund request: no one sends them while the sweep finds out.
        await db.transaction().execute(async (trx) => {
          await recordCancellation(trx, await findOrderById(trx, order.id), mail(true), options.now(), shopEmail);
        });
      const pending = answer.outcome === 'unknown';
      const what = whole
        ? 'Your order is cancelled.'
        : 'Those items are cancelled; the rest of your order will be sent as usual.';
      return {
        outcome: pending ? 'refund pending' : 'refunded',
        whole,
        amount,
        refundsTo,
        cancelled,
        message: pending
          ? `${what} Your refund of ${formatPence(amount)} is on its way ${refundsTo}.`
          : `${what} We have refunded ${formatPence(amount)} ${refundsTo}.`,
      };
    },
  };
}

export type Cancellations = ReturnType<typeof createCancellations>;
