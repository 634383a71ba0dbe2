import type { Kysely } from 'kysely';
import {
  awaitingPayment,
  isOneOf,
  isRefundedInFull,
  toDispatch,
  type DeliveryKind,
  type Fulfilment,
  type OrderStatus,
} from '../../contract/order-status.ts';
import { errorCodes, refusalMessages } from '../../contract/error-codes.ts';
import type { Database } from '../db/schema.ts';
import { RefusedError } from '../errors.ts';
import { issueCreditNote, issueInvoice } from '../documents/issue-documents.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import { refundEmail, type RefundRoute } from '../payments/order-emails.ts';
import { emailKeyOf } from './email-key.ts';
import {
  changeStatus,
  findOrderByCode,
  paidOrderOfChain,
  findOrderById,
  findOrderLines,
  findOrderVoucher,
  releaseVoucher,
  returnOrderStock,
  returnStock,
  returnStockOfLines,
  insertPaymentToRefund,
  moveRefundedTotal,
  releaseCapture,
  setCaptureClaim,
  setHoldsStock,
  setPaymentNote,
  setPaymentResult,
  setStaffCancelled,
  takeStockOfLines,
  useVoucher,
  type OrderRow,
  findOrderToInvoice,
} from './orders.repository.ts';
import {
  addDispatchedUnits,
  addToRefundedTotal,
  changeFulfilment,
  claimForFulfilment,
  insertFulfilment,
  settleWhenNothingLeftToDispatch,
  claimReportedRefund,
  findOrderLinesWithRestocked,
  findUnreportedStaffRefund,
  insertRecordedRefund,
  insertRefundLine,
  insertRefundRequestLines,
  markStaffRefundReported,
  takeFromRefundedTotal,
  takeRefundRequestLines,
  setDeliveryDetails,
} from './orders.admin-repository.ts';
import {
  findRefundByReference,
  findRefundRequest,
  insertRefundRequest,
  recordRefund as insertProviderRefund,
  settleRefundRequest,
  findRefundToCredit,
} from './order-refunds.repository.ts';

/**
 * The order lifecycle in one place (docs/architecture.md, "Order lifecycle"): every move an order
 * may make between its statuses, and the named steps that make them. Each step takes the caller's
 * transaction; a move is a conditional update, so of two instances making the same move at once,
 * exactly one does it and only that one gives back or takes stock.
 *
 *   (commit) ──reserve──> pending_payment ──failPayment──> payment_failed
 *   pending_payment | payment_failed ──expire──> expired      (stock and voucher given back)
 *   pending_payment | payment_failed ──replace──> cancelled   (stock and voucher given back)
 *   pending_payment | payment_failed | expired | cancelled ──pay──> paid
 *                                     (from expired or cancelled: stock and voucher taken again;
 *                                      never from cancelled by staff: that payment is to refund)
 *   pending_payment | payment_failed ──cancel (staff)──> cancelled   (stock and voucher given back)
 *
 * A paid order then goes on its way (its fulfilment, beside the payment status), by the kind of
 * its delivery method (fulfilmentMoves):
 *   delivery:   unfulfilled ──dispatch──> dispatched ──deliver──> delivered
 *               unfulfilled | partially_dispatched ──dispatch-part──> partially_dispatched
 *               partially_dispatched ──dispatch──> dispatched   (the last units sent, or
 *                                     nothing-left-to-send: a refund put them back in stock)
 *   collection: unfulfilled ──ready-for-collection──> ready_for_collection ──collect──> collected
 * and staff may record refunds against it, full or partial, up to what was paid, putting chosen
 * units back in stock.
 */

export const orderMoves = {
  failPayment: { from: ['pending_payment'], to: 'payment_failed' },
  expire: { from: awaitingPayment, to: 'expired' },
  replace: { from: awaitingPayment, to: 'cancelled' },
  pay: { from: [...awaitingPayment, 'expired', 'cancelled'], to: 'paid' },
  cancel: { from: awaitingPayment, to: 'cancelled' },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus }>;

/**
 * The basket was restored from an order (BACK TO CART after a declined card) that has been paid
 * since, through its recovery link on another device: committing it would buy the same goods a
 * second time without the shopper knowing (issue 32). A value, not a bug; answered as a 409.
 */
export class OrderAlreadyPaidError extends RefusedError {
  constructor() {
    super(409, errorCodes.orderAlreadyPaid, refusalMessages.orderAlreadyPaid);
  }
}

/** Whether the basket an order is for is paid: through it, an order it replaced, or the one that replaced it. */
export async function isPaidFor(
  db: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'status' | 'order_number' | 'replaces_order_id'>,
): Promise<boolean> {
  return (await paidOrderOfChain(db, order)) !== undefined;
}

/**
 * Refuses to hand an order to a payment page when it, or an order it replaced, is paid (a basket
 * paid for through a page open elsewhere): its goods would be paid for twice.
 */
export async function refuseIfPaidFor(
  db: Kysely<Database>,
  order: Pick<OrderRow, 'status' | 'order_number' | 'replaces_order_id'> & { id?: number },
): Promise<void> {
  if ((await paidOrderOfChain(db, order)) !== undefined) throw new OrderAlreadyPaidError();
}

/** Awaiting its payment with its reservation still running: it can be paid, handed off or recovered. */
export function holdsReservation(order: Pick<OrderRow, 'status' | 'reserved_until'>, now: Date): boolean {
  return isOneOf(order.status, awaitingPayment) && order.reserved_until > now.toISOString();
}

/** Gives an order's stock and its voucher's use back, once it has left the unpaid statuses. */
async function releaseOrder(trx: Kysely<Database>, orderId: number): Promise<void> {
  await returnOrderStock(trx, orderId);
  await setHoldsStock(trx, orderId, false);
  const voucher = await findOrderVoucher(trx, orderId);
  if (voucher) await releaseVoucher(trx, voucher);
}

/**
 * Takes an ended order's stock again (its payment arrived after it expired or was replaced), and
 * its voucher's use where the voucher's limit still allows (the order keeps its discount). The
 * stock is all or nothing: when one line can no longer be had, what was taken is given back.
 */
export async function takeOrderAgain(trx: Kysely<Database>, orderId: number): Promise<boolean> {
  const voucher = await findOrderVoucher(trx, orderId);
  if (voucher) await useVoucher(trx, voucher);
  const lines = (await findOrderLines(trx, orderId)).map((line) => ({
    productStockId: line.product_stock_id,
    quantity: line.quantity,
  }));
  const taken = new Set(await takeStockOfLines(trx, lines));
  if (taken.size < new Set(lines.map((line) => line.productStockId)).size) {
    await returnStockOfLines(
      trx,
      lines.filter((line) => taken.has(line.productStockId)),
    );
    return false;
  }
  await setHoldsStock(trx, orderId, true);
  return true;
}

/** An unpaid order whose reservation ran out: expired, its stock and voucher given back. */
export async function expireOrder(trx: Kysely<Database>, orderId: number, now: string): Promise<boolean> {
  if (!(await changeStatus(trx, orderId, orderMoves.expire.from, orderMoves.expire.to, now))) return false;
  await releaseOrder(trx, orderId);
  return true;
}

/**
 * The unpaid order a shopper's new commit replaces (BACK TO CART, then commit): cancelled and
 * released. Answers when its chain of replacements began and when its reservation runs out, for
 * the new order to continue from; 'already paid' when that order has been paid meanwhile (its
 * recovery link paid on another device), so the basket restored from it must not buy it again;
 * or undefined when there was no unpaid order to replace (it expired or was replaced).
 */
export async function replaceOrder(
  trx: Kysely<Database>,
  orderCode: string,
  now: string,
): Promise<{ heldSince: string; reservedUntil: string; orderId: number } | 'already paid' | undefined> {
  const order = await findOrderByCode(trx, orderCode);
  if (!order) return;
  // Paid, or an order it replaced paid after all (through a payment page open elsewhere).
  if ((await paidOrderOfChain(trx, order)) !== undefined) return 'already paid';
  if (!(await changeStatus(trx, order.id, orderMoves.replace.from, orderMoves.replace.to, now))) {
    // Paid between the read and the move (the update waited for the payment's transaction): read again.
    return (await findOrderByCode(trx, orderCode))?.status === 'paid' ? 'already paid' : undefined;
  }
  await releaseOrder(trx, order.id);
  return { heldSince: order.held_since ?? order.created_at, reservedUntil: order.reserved_until, orderId: order.id };
}

/** A retried payment gets at least this long, within its chain's limit. */
const RETRY_MINUTES = 15;

/**
 * How long a new order holds its stock. A fresh order: the reservation time. A replacement keeps
 * what is left of the order it replaces (at least a few minutes to pay again), and a chain of
 * replacements never holds past twice the reservation time from its first order: replacing an
 * order before it expires must not renew its hold for ever. Undefined when the chain is over.
 */
export function reservationFor(
  replaced: { heldSince: string; reservedUntil: string } | undefined,
  now: Date,
  reservationMinutes: number,
): { heldSince: string; reservedUntil: string } | undefined {
  const minutes = (m: number) => m * 60_000;
  if (!replaced) {
    return {
      heldSince: now.toISOString(),
      reservedUntil: new Date(now.getTime() + minutes(reservationMinutes)).toISOString(),
    };
  }
  const retryUntil = now.getTime() + minutes(Math.min(RETRY_MINUTES, reservationMinutes));
  const chainEnds = Date.parse(replaced.heldSince) + minutes(2 * reservationMinutes);
  const until = Math.min(Math.max(Date.parse(replaced.reservedUntil), retryUntil), chainEnds);
  if (until <= now.getTime()) return undefined;
  return { heldSince: replaced.heldSince, reservedUntil: new Date(until).toISOString() };
}

export interface PaymentResult {
  provider: string;
  providerStatus: string;
  transactionId: string;
  authCode?: string | null;
}

/**
 * The provider confirmed the payment. An order that had expired or been replaced takes its stock
 * again, or is flagged for the owner when it cannot (a late payment is never lost: docs/rules.md#orders-and-stock).
 * A payment for an order already paid by another payment is recorded for staff to refund
 * ('paid twice'); the same payment reported again changes nothing ('already paid'). Every caller
 * has checked that the payment is for the order's amount.
 */
export async function markOrderPaid(
  trx: Kysely<Database>,
  order: OrderRow,
  payment: PaymentResult,
  at: string,
): Promise<PaymentOutcome> {
  const outcome = await pay(trx, order, payment, at);
  // Paid now: its VAT invoice is issued with the payment (docs/rules.md#invoices-and-credit-notes).
  if (outcome === 'paid' || outcome === 'paid late')
    await issueInvoice(trx, await findOrderToInvoice(trx, order.id), at);
  return outcome;
}

type PaymentOutcome = 'already paid' | 'paid' | 'paid late' | 'paid twice' | 'refund due: cancelled by staff';

async function pay(
  trx: Kysely<Database>,
  order: OrderRow,
  payment: PaymentResult,
  at: string,
): Promise<PaymentOutcome> {
  let current = order;
  // The move is made from the status just read, so a payment racing another payment, an expiry or
  // a replacement reads the order again instead of acting on what it no longer is.
  for (let attempt = 0; attempt < 3 && current.status !== orderMoves.pay.to; attempt++) {
    // Staff cancelled it (suspected fraud, a mistake): the money is kept for a refund, and the
    // order stays cancelled, never offered for dispatch.
    if (current.staff_cancelled_at) {
      await insertPaymentToRefund(trx, {
        orderId: order.id,
        provider: payment.provider,
        reference: payment.transactionId,
        amount: order.total_including_delivery,
        reason: 'cancelled by staff',
        at,
      });
      return 'refund due: cancelled by staff';
    }
    const from = current.status;
    if (
      !(await setPaymentResult(trx, order.id, [from], {
        status: orderMoves.pay.to,
        ...payment,
        paidAt: at,
        note: null,
        at,
      }))
    ) {
      current = await findOrderById(trx, order.id);
      continue;
    }
    if (from !== 'expired' && from !== 'cancelled') return 'paid';
    const had = from === 'expired' ? 'expired' : 'been cancelled';
    await setPaymentNote(
      trx,
      order.id,
      (await takeOrderAgain(trx, order.id))
        ? `Paid after it had ${had}; the stock was taken again.`
        : `Paid after it had ${had}; the stock could not be taken again: refund or restock.`,
      at,
    );
    return 'paid late';
  }
  if (current.status !== orderMoves.pay.to) throw new Error(`order ${order.id} would not move to paid`);
  if (current.transaction_id === payment.transactionId) return 'already paid';
  await insertPaymentToRefund(trx, {
    orderId: order.id,
    provider: payment.provider,
    reference: payment.transactionId,
    amount: order.total_including_delivery,
    reason: 'paid twice',
    at,
  });
  return 'paid twice';
}

/** How long a claim to capture holds before another capture may take it over (its process died). */
const CAPTURE_CLAIM_MINUTES = 2;

/**
 * Claims an order for capturing one of its PayPal Checkout orders, before the shop asks PayPal
 * to capture it: of two PayPal orders for one order (two handoffs, both approved) returning at
 * once, only the first to claim is captured, so the shopper pays once. False when the order is
 * paid, cancelled by staff (no money is taken for it at all), or claimed for another PayPal order.
 */
export function claimCapture(trx: Kysely<Database>, orderId: number, reference: string, now: Date): Promise<boolean> {
  return setCaptureClaim(trx, orderId, {
    reference,
    from: orderMoves.pay.from,
    at: now.toISOString(),
    staleBefore: new Date(now.getTime() - CAPTURE_CLAIM_MINUTES * 60_000).toISOString(),
  });
}

/** Gives up a claim to capture (the provider answered and the order is not paid), if it is still this reference's. */
export async function releaseCaptureClaim(db: Kysely<Database>, orderId: number, reference: string): Promise<void> {
  if ((await findOrderById(db, orderId)).status !== orderMoves.pay.to) await releaseCapture(db, orderId, reference);
}

/**
 * The provider declined the payment. Only an order still waiting for it fails (and its shopper is
 * told); a failure reported after the order was paid, or had already failed, changes nothing.
 */
export async function markPaymentFailed(
  trx: Kysely<Database>,
  orderId: number,
  payment: Omit<PaymentResult, 'transactionId'> & { transactionId?: string | null },
  at: string,
): Promise<boolean> {
  return setPaymentResult(trx, orderId, orderMoves.failPayment.from, {
    status: orderMoves.failPayment.to,
    ...payment,
    at,
  });
}

/**
 * A paid order's way to the customer, by the kind of its delivery method: a delivery order is
 * dispatched and then delivered; a collection order is made ready for collection and then
 * collected. Each move names where it starts from, the kinds of order it is for, and whether an
 * order refunded in full may make it: nothing is sent, or handed over, once all its money has
 * gone back (delivery only records what the carrier did). A new move is a new row here: staff's
 * actions, the conditional update and the tests all read this table.
 */
export const fulfilmentMoves = {
  // A fulfilment that sends every unit still to send; one that leaves some to come is a part
  // (offered to staff as the same action: the units they choose decide which move it makes).
  dispatch: { from: toDispatch, to: 'dispatched', kinds: ['delivery'], whileRefundedInFull: false },
  'dispatch-part': {
    from: toDispatch,
    to: 'partially_dispatched',
    kinds: ['delivery'],
    whileRefundedInFull: false,
    offeredAs: 'dispatch',
  },
  deliver: { from: ['dispatched'], to: 'delivered', kinds: ['delivery'], whileRefundedInFull: true },
  'ready-for-collection': {
    from: ['unfulfilled'],
    to: 'ready_for_collection',
    kinds: ['collection'],
    whileRefundedInFull: false,
  },
  collect: { from: ['ready_for_collection'], to: 'collected', kinds: ['collection'], whileRefundedInFull: false },
  // A refund put back in stock the last units a partially dispatched order had still to send:
  // nothing more will leave, so it is dispatched (made by the refund, never offered to staff).
  'nothing-left-to-send': {
    from: ['partially_dispatched'],
    to: 'dispatched',
    kinds: ['delivery'],
    whileRefundedInFull: true,
    offeredAs: null,
  },
} as const satisfies Record<string, FulfilmentMove>;

export interface FulfilmentMove {
  from: readonly Fulfilment[];
  to: Fulfilment;
  kinds: readonly DeliveryKind[];
  whileRefundedInFull: boolean;
  /** The staff action that makes it, when not its own name; null when staff never make it. */
  offeredAs?: 'dispatch' | null;
}

export type FulfilmentAction = keyof typeof fulfilmentMoves;

/** The fulfilment moves staff are offered by name. */
export type OfferedFulfilmentAction = {
  [A in FulfilmentAction]: (typeof fulfilmentMoves)[A] extends { offeredAs: unknown } ? never : A;
}[FulfilmentAction];

export type StaffAction =
  OfferedFulfilmentAction | 'cancel' | 'refund' | 'change-delivery-details' | 'resend-confirmation';
type ActingOn = Pick<
  OrderRow,
  'status' | 'fulfilment' | 'refunded_total' | 'total_including_delivery' | 'delivery_kind'
>;

const refundable = (order: ActingOn) => ({
  status: order.status,
  total: order.total_including_delivery,
  refundedTotal: order.refunded_total,
});

/** Whether a fulfilment move may be made on this order now (changeFulfilment makes the same test in SQL). */
export function canMakeFulfilmentMove(order: ActingOn, move: FulfilmentMove): boolean {
  return (
    order.status === 'paid' &&
    move.from.includes(order.fulfilment) &&
    move.kinds.includes(order.delivery_kind) &&
    (move.whileRefundedInFull || !isRefundedInFull(refundable(order)))
  );
}

/** What staff may do to an order now: the back office offers these and refuses the rest. */
export function staffActionsFor(order: ActingOn): StaffAction[] {
  const actions: StaffAction[] = [];
  const paid = order.status === 'paid';
  const fullyRefunded = isRefundedInFull(refundable(order));
  for (const [action, move] of Object.entries(fulfilmentMoves) as Array<[FulfilmentAction, FulfilmentMove]>) {
    const offered = move.offeredAs === undefined ? (action as OfferedFulfilmentAction) : move.offeredAs;
    if (offered !== null && !actions.includes(offered) && canMakeFulfilmentMove(order, move)) actions.push(offered);
  }
  if (isOneOf(order.status, orderMoves.cancel.from)) actions.push('cancel');
  if (paid && !fullyRefunded) actions.push('refund');
  // While something is still to leave, where it goes may change (changeDeliveryDetails); not once
  // refunded in full.
  if (
    (deliveryDetailsChangeable as readonly Fulfilment[]).includes(order.fulfilment) &&
    isOneOf(order.status, ['pending_payment', 'payment_failed', 'paid']) &&
    !fullyRefunded
  )
    actions.push('change-delivery-details');
  // A confirmation says the order is on its way to being sent: not for one refunded in full.
  if (paid && !fullyRefunded) actions.push('resend-confirmation');
  return actions;
}

/**
 * Staff cancel an unpaid order: its stock and voucher use are given back. False when it is no
 * longer unpaid. Unlike a replaced order, a payment that arrives for it later does not pay it
 * (`markOrderPaid`), and PayPal Checkout does not capture for it (`claimCapture`).
 */
export async function cancelOrder(trx: Kysely<Database>, orderId: number, now: string): Promise<boolean> {
  if (!(await changeStatus(trx, orderId, orderMoves.cancel.from, orderMoves.cancel.to, now))) return false;
  await setStaffCancelled(trx, orderId, now);
  await releaseOrder(trx, orderId);
  return true;
}

/** One tracked parcel of a fulfilment. */
export interface Parcel {
  carrier: string;
  trackingNumber: string;
}

/** What staff send: chosen units of chosen lines (every unit still to send when none are named), tracked or not. */
export interface FulfilmentToSend {
  lines?: ReadonlyArray<{ orderLineId: number; quantity: number }> | undefined;
  parcels?: readonly Parcel[] | undefined;
  untracked?: { service: string } | undefined;
}

export interface LineUnits {
  lineId: number;
  title: string;
  sizeName: string;
  quantity: number;
}

export type DispatchRefusal =
  | { refused: 'cannot move' }
  | { refused: 'nothing left to send' }
  | { refused: 'nothing chosen' }
  | { refused: 'no such line'; index: number }
  | { refused: 'more than remains'; index: number; line: LineUnits };

export interface Dispatched {
  fulfilmentId: number;
  fulfilment: 'dispatched' | 'partially_dispatched';
  sent: LineUnits[];
  /** What is still to come after this fulfilment. */
  toCome: LineUnits[];
}

/** A line's units as findOrderLinesWithRestocked reads them. */
interface LineUnitCounts {
  quantity: number;
  dispatched: number;
  /** Put back in stock by refunds: before they were sent, or sent and returned. */
  restocked: number | string;
  /** Of those, the ones that had been sent and came back. */
  returned: number | string;
}

/**
 * Units of a line still to send: ordered, less those sent, those refunds put back in stock before
 * they were sent and those a refund still in flight holds to put back (sent once its provider
 * refuses it).
 */
export function unitsToSend(line: LineUnitCounts & { reserved: number | string }): number {
  return Math.max(0, unitsToCome(line) - Number(line.reserved));
}

/**
 * Units of a line neither sent nor put back in stock before sending: those a refund in flight
 * holds included. A unit sent and returned was sent, so it leaves the units still owed as they are.
 */
function unitsToCome(line: LineUnitCounts): number {
  return Math.max(0, line.quantity - line.dispatched - (Number(line.restocked) - Number(line.returned)));
}

/**
 * A paid delivery order sends some or all of what it has still to send, in tracked parcels or
 * untracked: one fulfilment, and the order moves to partially_dispatched or dispatched by what is
 * left. The order's row is taken first (claimForFulfilment: on PostgreSQL a second dispatch of it
 * waits for this one), and each line's units are counted by a conditional update, so two staff
 * sending the same lines at once never send more than a line has. Answers why not, when it
 * cannot; the caller rolls back.
 */
export async function dispatchLines(
  trx: Kysely<Database>,
  orderId: number,
  toSend: FulfilmentToSend,
  staff: { id: number; email: string },
  now: string,
): Promise<Dispatched | DispatchRefusal> {
  if (!(await claimForFulfilment(trx, orderId, fulfilmentMoves.dispatch, now))) return { refused: 'cannot move' };
  const lines = await findOrderLinesWithRestocked(trx, orderId);
  const units = (line: (typeof lines)[number], quantity: number): LineUnits => ({
    lineId: line.id,
    title: line.title,
    sizeName: line.size_name,
    quantity,
  });
  let chosen: Array<LineUnits & { index: number }>;
  if (toSend.lines) {
    chosen = [];
    for (const [index, asked] of toSend.lines.entries()) {
      const line = lines.find((one) => one.id === asked.orderLineId);
      if (!line) return { refused: 'no such line', index };
      if (asked.quantity > unitsToSend(line))
        return { refused: 'more than remains', index, line: units(line, unitsToSend(line)) };
      if (asked.quantity > 0) chosen.push({ ...units(line, asked.quantity), index });
    }
    if (chosen.length === 0) return { refused: 'nothing chosen' };
  } else {
    chosen = lines
      .map((line, index) => ({ ...units(line, unitsToSend(line)), index }))
      .filter((line) => line.quantity > 0);
    if (chosen.length === 0) return { refused: 'nothing left to send' };
  }
  for (const line of chosen)
    if (!(await addDispatchedUnits(trx, orderId, line.lineId, line.quantity))) {
      const read = lines.find((one) => one.id === line.lineId)!;
      return { refused: 'more than remains', index: line.index, line: units(read, unitsToSend(read)) };
    }
  const parcels = toSend.untracked ? [] : (toSend.parcels ?? []);
  const fulfilmentId = await insertFulfilment(trx, {
    orderId,
    method: toSend.untracked ? 'untracked' : 'tracked',
    service: toSend.untracked?.service ?? null,
    at: now,
    staff,
    lines: chosen,
    parcels,
  });
  // Units a refund in flight holds are still to come: sent if its provider refuses it, so the
  // order stays partially dispatched until that refund settles (settleWhenNothingLeft).
  const toCome = lines
    .map((line) => units(line, unitsToCome(line) - (chosen.find((one) => one.lineId === line.id)?.quantity ?? 0)))
    .filter((line) => line.quantity > 0);
  const move = toCome.length > 0 ? fulfilmentMoves['dispatch-part'] : fulfilmentMoves.dispatch;
  const first = parcels[0];
  await changeFulfilment(
    trx,
    orderId,
    move,
    { dispatched_at: now, ...(first ? { carrier: first.carrier, tracking_number: first.trackingNumber } : {}) },
    now,
  );
  return {
    fulfilmentId,
    fulfilment: move.to,
    sent: chosen.map(({ index: _index, ...line }) => line),
    toCome,
  };
}

/**
 * Whether the shopper may still cancel units of this order (docs/rules.md#cancelling-before-dispatch):
 * a paid order not refunded in full, a delivery order still waiting to be sent (some of it may have
 * gone), a collection order not yet made ready for collection.
 */
export function cancellingAllowed(
  order: Pick<OrderRow, 'status' | 'fulfilment' | 'delivery_kind' | 'refunded_total' | 'total_including_delivery'>,
): boolean {
  return order.status === 'paid' && !isRefundedInFull(refundable(order)) && stillWaiting(order);
}

/** Nothing handed over yet: a delivery order still to send (some may have gone), a collection order not yet ready. */
const stillWaiting = (order: Pick<OrderRow, 'fulfilment' | 'delivery_kind'>) =>
  order.delivery_kind === 'collection'
    ? order.fulfilment === 'unfulfilled'
    : (toDispatch as readonly Fulfilment[]).includes(order.fulfilment);

/** Units of a line the shopper may still cancel: those still to send (unitsToSend). */
export const unitsToCancel = unitsToSend;

/**
 * Whether every unit asked for is still to send, on an order that may still be cancelled, read
 * in the caller's transaction after it took the order's row (reserveRefund).
 */
async function stillToCancel(trx: Kysely<Database>, orderId: number, restock: Restock): Promise<boolean> {
  // Not cancellingAllowed: the amount this cancellation reserved may have refunded it in full.
  if (!stillWaiting(await findOrderById(trx, orderId))) return false;
  const lines = new Map((await findOrderLinesWithRestocked(trx, orderId)).map((line) => [line.id, line]));
  const asked = new Map<number, number>();
  for (const { lineId, quantity } of restock) asked.set(lineId, (asked.get(lineId) ?? 0) + quantity);
  for (const [lineId, quantity] of asked) {
    const line = lines.get(lineId);
    if (!line || quantity > unitsToCancel(line)) return false;
  }
  return true;
}

/** A partially dispatched order with nothing left to send once a refund put units back is dispatched. */
async function settleWhenNothingLeft(trx: Kysely<Database>, orderId: number): Promise<void> {
  await settleWhenNothingLeftToDispatch(trx, orderId, fulfilmentMoves['nothing-left-to-send']);
}

/**
 * A paid collection order is packed and waits at the shop for its customer. False when it is not
 * a paid collection order waiting to be made ready (a delivery order is dispatched instead).
 */
export function makeReadyForCollection(trx: Kysely<Database>, orderId: number, now: string): Promise<boolean> {
  return changeFulfilment(trx, orderId, fulfilmentMoves['ready-for-collection'], { dispatched_at: now }, now);
}

/** The customer collected it. False when it is not a collection order ready for collection. */
export function collectOrder(trx: Kysely<Database>, orderId: number, now: string): Promise<boolean> {
  return changeFulfilment(trx, orderId, fulfilmentMoves.collect, { delivered_at: now }, now);
}

/** Fulfilments in which something is still to leave the shop, so where it goes may change. */
const deliveryDetailsChangeable = ['unfulfilled', 'partially_dispatched'] as const satisfies readonly Fulfilment[];

/**
 * Where an order (or the rest of one partly sent) goes, and how its customer is reached, changed by
 * staff (the customer rang: a new address, a new number). False once everything has left, or when
 * it is cancelled or expired.
 */
export function changeDeliveryDetails(
  trx: Kysely<Database>,
  orderId: number,
  details: {
    deliveryAddress: { line1: string; line2: string; line3: string; townCity: string; postcode: string };
    contactNumber: string;
    email: string;
  },
  now: string,
): Promise<boolean> {
  const { deliveryAddress: to } = details;
  return setDeliveryDetails(
    trx,
    orderId,
    {
      delivery_line1: to.line1,
      delivery_line2: to.line2,
      delivery_line3: to.line3,
      delivery_town_city: to.townCity,
      delivery_postcode: to.postcode,
      contact_number: details.contactNumber,
      email: details.email,
      email_key: emailKeyOf(details.email),
    },
    deliveryDetailsChangeable,
    now,
  );
}

export function deliverOrder(trx: Kysely<Database>, orderId: number, now: string): Promise<boolean> {
  return changeFulfilment(trx, orderId, fulfilmentMoves.deliver, { delivered_at: now }, now);
}

export type RefundRefusal = 'not refundable' | 'more than paid' | 'already sent' | RestockRefusal;
export type RestockRefusal = 'no such line' | 'more than sold' | 'not held';
/**
 * Units to put back in stock. `returnedAfterDispatch`: how many of them had been sent and came
 * back (a return knows it); left out, the line's units still to send are taken first.
 */
export type Restock = ReadonlyArray<{ lineId: number; quantity: number; returnedAfterDispatch?: number }>;
/** Units to put back, each with how many of them had been sent. */
type SortedRestock = ReadonlyArray<{ lineId: number; quantity: number; returnedAfterDispatch: number }>;

/**
 * Records a refund made outside the shop (until the provider's own refund call exists) against a
 * paid order: never more than was paid in all, and never more units of a line back in stock than
 * were sold. The total is raised first, in one conditional update, so two refunds at once are
 * counted one after the other. Answers why not, when it cannot; the caller rolls back.
 */
export async function recordRefund(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'status' | 'holds_stock' | 'payment_provider'>,
  refund: { amount: number; note: string; restock: Restock },
  now: string,
): Promise<{ refundId: number; counted: boolean } | { refused: RefundRefusal }> {
  if (order.status !== 'paid') return { refused: 'not refundable' };
  // An order paid after its units went to someone else never took them: nothing to put back.
  if (refund.restock.length > 0 && !order.holds_stock) return { refused: 'not held' };
  // PayPal Standard's IPN reports the refunds staff make in PayPal's pages: one it reported already
  // is the refund staff are recording, counted then, so it is not counted again.
  const reported =
    order.payment_provider && REFUNDS_REPORTED_BY.includes(order.payment_provider)
      ? await claimReportedRefund(trx, {
          orderId: order.id,
          provider: order.payment_provider,
          amount: refund.amount,
          note: refund.note,
        })
      : undefined;
  if (reported === undefined && !(await addToRefundedTotal(trx, order.id, refund.amount, now)))
    return { refused: 'more than paid' };
  const refused = await restockRefusal(trx, order, refund.restock);
  if (refused) return { refused };
  const refundId =
    reported ??
    (await insertRecordedRefund(trx, {
      orderId: order.id,
      amount: refund.amount,
      note: refund.note,
      at: now,
    }));
  await putBack(trx, order.id, refundId, await sortSentFromUnsent(trx, order.id, refund.restock));
  // One the provider reported first had its credit note then.
  if (reported === undefined) await issueCreditNoteFor(trx, order.id, refundId, { note: refund.note }, now);
  return { refundId, counted: reported === undefined };
}

/**
 * Units put back in stock with no money returned: a return whose deduction for diminished value
 * took all its goods' price (docs/rules.md#returns). Recorded as a refund of nothing, so the units
 * count as put back everywhere a refund's do; nothing was credited, so no credit note.
 */
export async function recordRestockWithoutRefund(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'status' | 'holds_stock'>,
  restock: { note: string; units: Restock },
  now: string,
): Promise<{ refundId: number } | { refused: RefundRefusal }> {
  if (order.status !== 'paid') return { refused: 'not refundable' };
  const refused = await restockRefusal(trx, order, restock.units);
  if (refused) return { refused };
  const refundId = await insertRecordedRefund(trx, { orderId: order.id, amount: 0, note: restock.note, at: now });
  await putBack(trx, order.id, refundId, await sortSentFromUnsent(trx, order.id, restock.units));
  return { refundId };
}

/** Providers whose notifications report refunds staff make in their pages (PayPal Standard's IPN). */
const REFUNDS_REPORTED_BY: readonly string[] = ['paypal'];

/**
 * Holds the units a refund through a provider will put back, in the transaction that reserves its
 * amount and before the provider is asked (ADR 0013): a refund that cannot put them back is
 * refused while no money has moved. Call it after the amount is reserved: on PostgreSQL that
 * update locks the order's row, so a second refund at the same moment reads the units this one
 * holds. Answers why not, when it cannot; the caller rolls back.
 */
export async function holdRefundedUnits(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'holds_stock'>,
  refundRequestId: number,
  restock: Restock,
): Promise<RestockRefusal | undefined> {
  const refused = await restockRefusal(trx, order, restock);
  if (refused) return refused;
  await insertRefundRequestLines(trx, refundRequestId, await sortSentFromUnsent(trx, order.id, restock));
  return undefined;
}

/**
 * Puts a provider refund's held units back in stock, recorded against the refund made: once,
 * whichever of the provider's answer and its notification records the refund first.
 */
export async function putBackHeldUnits(
  trx: Kysely<Database>,
  orderId: number,
  refundRequestId: number,
  refundId: number,
): Promise<void> {
  await putBack(trx, orderId, refundId, await takeRefundRequestLines(trx, refundRequestId));
}

/**
 * Why a refund cannot put these units back: a line not on the order, or more of a line than it
 * sold, counting what earlier refunds put back and what refunds not yet settled hold.
 */
async function restockRefusal(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'holds_stock'>,
  restock: Restock,
): Promise<RestockRefusal | undefined> {
  if (restock.length === 0) return undefined;
  // An order paid after its units went to someone else never took them: nothing to put back.
  if (!order.holds_stock) return 'not held';
  const lines = new Map((await findOrderLinesWithRestocked(trx, order.id)).map((line) => [line.id, line]));
  const asked = new Map<number, number>();
  for (const { lineId, quantity } of restock) {
    const line = lines.get(lineId);
    if (!line) return 'no such line';
    asked.set(lineId, (asked.get(lineId) ?? 0) + quantity);
    if (Number(line.restocked) + Number(line.reserved) + (asked.get(lineId) ?? 0) > line.quantity)
      return 'more than sold';
  }
  return undefined;
}

/**
 * How many of each line's units to put back had been sent: what the caller says (a return's units
 * were all sent), or else the rest once the line's units still to send are taken, since a refund
 * putting back units of a line not fully sent most likely cancels those (its staff chose them).
 * Call it after restockRefusal, in the same transaction.
 */
async function sortSentFromUnsent(trx: Kysely<Database>, orderId: number, restock: Restock): Promise<SortedRestock> {
  if (restock.every((unit) => unit.returnedAfterDispatch !== undefined))
    return restock.map((unit) => ({ ...unit, returnedAfterDispatch: unit.returnedAfterDispatch! }));
  const lines = new Map((await findOrderLinesWithRestocked(trx, orderId)).map((line) => [line.id, line]));
  const unsentLeft = new Map([...lines].map(([id, line]) => [id, unitsToSend(line)]));
  return restock.map((unit) => {
    if (unit.returnedAfterDispatch !== undefined)
      return { ...unit, returnedAfterDispatch: Math.min(unit.quantity, unit.returnedAfterDispatch) };
    const unsent = Math.min(unit.quantity, unsentLeft.get(unit.lineId) ?? 0);
    unsentLeft.set(unit.lineId, (unsentLeft.get(unit.lineId) ?? 0) - unsent);
    return { ...unit, returnedAfterDispatch: unit.quantity - unsent };
  });
}

/** Puts units back in stock, recorded against the refund that sent their money back. */
async function putBack(
  trx: Kysely<Database>,
  orderId: number,
  refundId: number,
  restock: SortedRestock,
): Promise<void> {
  if (restock.length === 0) return;
  const stockOf = new Map((await findOrderLines(trx, orderId)).map((line) => [line.id, line.product_stock_id]));
  for (const { lineId, quantity, returnedAfterDispatch } of restock) {
    await insertRefundLine(trx, { refundId, orderLineId: lineId, quantity, returnedAfterDispatch });
    await returnStock(trx, stockOf.get(lineId)!, quantity);
  }
  await settleWhenNothingLeft(trx, orderId);
}

/*
 * Refunds through a provider: one workflow (ADR 0013, docs/decisions/0025-payment-adapters.md).
 *
 *   reserve ──> ask the provider ──> refunded: settle   (the refund recorded, its held units back)
 *                                 ──> refused:  release  (the amount and the units given back)
 *                                 ──> unknown:  kept reserved until the provider reports it, or the
 *                                               sweep asks again and settles or releases it
 *
 * Staff refunds, the sweep of unconfirmed refunds and the refunds a provider reports (webhook,
 * IPN, its answer to our call) all take these steps. "Never more than was paid" is one conditional
 * update, addToRefundedTotal, made by `reserveRefund` or, for a refund we did not ask for, by
 * `recordReportedRefund`.
 */

/**
 * What a provider answered when asked to refund, or asked again about a refund it did not confirm.
 * `refunded`: made, recorded under its reference. `refused`: nothing moved. `unknown`: no answer;
 * the money may have moved, so the reservation is kept.
 */
export type RefundAnswer =
  | { outcome: 'refunded'; reference: string }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'unknown'; reason: string };

export interface RefundQuestion {
  order: OrderRow;
  /** Pence, already reserved against the order's refunded total. */
  amount: number;
  /** Ours, unique per refund: the provider's idempotency key and its reconciliation reference. */
  requestId: string;
  note: string;
}

/** A provider as the refund workflow asks it (payments.service.ts answers for each adapter). */
export interface RefundingProvider {
  readonly id: string;
  /** Sends money back; absent where the shop cannot (staff then record a refund made outside). */
  refund?(question: RefundQuestion): Promise<RefundAnswer>;
  /** Whether `refund` can send this order's money back. Absent: whenever `refund` is there. */
  canRefund?(order: Pick<OrderRow, 'transaction_id'>): boolean;
  /** What became of a refund it did not confirm, asked again. Absent: it reports its refunds itself. */
  settleRefund?(question: RefundQuestion): Promise<RefundAnswer>;
}

/** A refund request the workflow has reserved: what release and settle need. */
export interface ReservedRefund {
  orderId: number;
  /** refund_requests.id, which its held units are kept under. */
  id: number;
  requestId: string;
  amount: number;
}

/**
 * Step 1, reserve: the amount is added to the refunded total by the conditional update that keeps
 * refunds within what was paid, the request written, and the units to put back held with it, so
 * two refunds at once can never send back more than was paid nor be refused for their units after
 * the provider has refunded. Answers why not, when it cannot; the caller rolls back.
 */
export async function reserveRefund(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'status' | 'holds_stock'>,
  refund: {
    provider: string;
    amount: number;
    requestId: string;
    note: string;
    restock: Restock;
    /** A cancellation: its units must all be still to send (none sent, put back, or held by another refund). */
    unsentOnly?: boolean;
  },
  at: string,
): Promise<ReservedRefund | { refused: RefundRefusal }> {
  if (order.status !== 'paid') return { refused: 'not refundable' };
  // First the amount: on PostgreSQL this update locks the order's row, so the units are read
  // after any refund racing this one has held its own.
  if (!(await addToRefundedTotal(trx, order.id, refund.amount, at))) return { refused: 'more than paid' };
  // A cancellation: read after that lock, so a dispatch racing it has either sent its units (and
  // this refuses) or will read the units this holds (and refuses to send them).
  if (refund.unsentOnly && !(await stillToCancel(trx, order.id, refund.restock))) return { refused: 'already sent' };
  const id = await insertRefundRequest(trx, {
    orderId: order.id,
    provider: refund.provider,
    amount: refund.amount,
    requestId: refund.requestId,
    note: refund.note,
    at,
  });
  const refused = await holdRefundedUnits(trx, order, id, refund.restock);
  if (refused) return { refused };
  return { orderId: order.id, id, requestId: refund.requestId, amount: refund.amount };
}

/**
 * Step 3, release: the provider made no refund, so the request is closed and its amount given
 * back; once, whichever of staff's call and the sweep gets there first.
 */
export async function releaseRefund(trx: Kysely<Database>, reserved: ReservedRefund, at: string): Promise<boolean> {
  if (!(await settleRefundRequest(trx, reserved.requestId, { status: 'refused', reference: null, at }))) return false;
  await moveRefundedTotal(trx, reserved.orderId, -reserved.amount, at);
  return true;
}

/**
 * Step 3, settle: the provider made the refund, recorded under its reference (by the event its
 * answer or its report made); the units held with the request go back in stock with it. Not
 * recorded yet: they stay held until the provider's report records it.
 */
export async function settleRefund(trx: Kysely<Database>, reserved: ReservedRefund, reference: string): Promise<void> {
  const refundId = await findRefundByReference(trx, reserved.orderId, reference);
  if (refundId !== undefined) await putBackHeldUnits(trx, reserved.orderId, reserved.id, refundId);
}

/** Step 3 for any answer: settle, release, or (unknown) keep the reservation. */
export async function finishRefund(
  trx: Kysely<Database>,
  reserved: ReservedRefund,
  answer: RefundAnswer,
  at: string,
): Promise<'released' | undefined> {
  if (answer.outcome === 'refunded') await settleRefund(trx, reserved, answer.reference);
  if (answer.outcome === 'refused' && (await releaseRefund(trx, reserved, at))) return 'released';
  return undefined;
}

/** Thrown inside the reserving transaction to roll it back; answered as a value. */
class RefundRefused extends Error {
  readonly refusal: RefundRefusal;
  constructor(refusal: RefundRefusal) {
    super(refusal);
    this.refusal = refusal;
  }
}

/**
 * A refund through the provider, its steps in order: reserve, ask, then settle or release.
 * `onRefunded` runs in the transaction that settles it (the caller's audit entry). `claim` runs in
 * the reserving transaction, so what the refund is for (a return) is taken with its amount or not
 * at all; it throws to refuse. `unclaim` runs in the transaction that releases a refused refund.
 */
export async function refundThroughProvider(
  db: Kysely<Database>,
  provider: Required<Pick<RefundingProvider, 'refund'>> & RefundingProvider,
  refund: {
    orderId: number;
    amount: number;
    requestId: string;
    note: string;
    restock: Restock;
    unsentOnly?: boolean;
  },
  steps: {
    now: () => string;
    onRefunded: (trx: Kysely<Database>, order: OrderRow, at: string, reference: string) => Promise<void>;
    claim?: (trx: Kysely<Database>, at: string) => Promise<void>;
    unclaim?: (trx: Kysely<Database>) => Promise<void>;
  },
): Promise<{ refused: RefundRefusal } | RefundAnswer> {
  let reserved: { order: OrderRow; request: ReservedRefund };
  try {
    reserved = await db.transaction().execute(async (trx) => {
      const order = await findOrderById(trx, refund.orderId);
      const at = steps.now();
      await steps.claim?.(trx, at);
      const request = await reserveRefund(trx, order, { ...refund, provider: provider.id }, at);
      if ('refused' in request) throw new RefundRefused(request.refused);
      return { order, request };
    });
  } catch (error) {
    if (error instanceof RefundRefused) return { refused: error.refusal };
    throw error;
  }
  const answer = await provider.refund({
    order: reserved.order,
    amount: refund.amount,
    requestId: refund.requestId,
    note: refund.note,
  });
  if (answer.outcome === 'unknown') return answer;
  await db.transaction().execute(async (trx) => {
    const at = steps.now();
    if ((await finishRefund(trx, reserved.request, answer, at)) === 'released') await steps.unclaim?.(trx);
    if (answer.outcome === 'refunded')
      await steps.onRefunded(trx, await findOrderById(trx, refund.orderId), at, answer.reference);
  });
  return answer;
}

/**
 * A refund request the provider never confirmed, asked about again (the sweep): settled or
 * released as its answer says. True when that settled it. `onReleased` runs in the transaction
 * that releases it, once: what waited on the refund (a cancellation, a return) is given back.
 */
export async function settleUnconfirmedRefund(
  db: Kysely<Database>,
  provider: RefundingProvider | undefined,
  request: { id: number; order_id: number; amount: number; request_id: string; note: string },
  now: () => string,
  onReleased?: (trx: Kysely<Database>, at: string) => Promise<void>,
): Promise<boolean> {
  const order = await findOrderById(db, request.order_id).catch(() => undefined);
  if (!provider?.settleRefund || !order) return false;
  const answer = await provider.settleRefund({
    order,
    amount: request.amount,
    requestId: request.request_id,
    note: request.note,
  });
  if (answer.outcome === 'unknown') return false;
  const reserved = { orderId: order.id, id: request.id, requestId: request.request_id, amount: request.amount };
  await db.transaction().execute(async (trx) => {
    const at = now();
    if ((await finishRefund(trx, reserved, answer, at)) === 'released') await onReleased?.(trx, at);
  });
  return true;
}

export type ReportedRefundKind = 'refund' | 'reversal' | 'reversal_cancelled';

/**
 * A refund, reversal or cancelled reversal the provider reports for a paid order (its webhook, its
 * IPN, or its answer to our refund call), recorded once by the caller's event key. A refund we asked
 * for was reserved before the provider was asked: its request is settled, not counted again, and
 * its held units go back. One staff recorded already (made in the provider's own pages, which
 * PayPal Standard's IPN reports) is named on staff's record. Any other is reserved now, within
 * what is left to refund; a cancelled reversal gives back at most what went out.
 */
export async function recordReportedRefund(
  trx: Kysely<Database>,
  order: Pick<OrderRow, 'id'>,
  refund: { kind: ReportedRefundKind; amount: number; provider: string; reference: string; requestId?: string },
  at: string,
): Promise<
  | { recorded: ReportedRefundKind; staffHad?: true }
  | { refused: 'more than is left to refund' | 'more than was refunded' | 'refund request already settled' }
> {
  const requested =
    refund.kind === 'reversal_cancelled' || !refund.requestId
      ? undefined
      : await findRefundRequest(trx, refund.requestId);
  const ours =
    requested && requested.order_id === order.id && requested.amount === refund.amount ? requested : undefined;
  if (refund.kind === 'reversal_cancelled') {
    if (!(await takeFromRefundedTotal(trx, order.id, refund.amount, at))) return { refused: 'more than was refunded' };
  } else if (ours) {
    if (!(await settleRefundRequest(trx, ours.request_id, { status: 'refunded', reference: refund.reference, at })))
      return { refused: 'refund request already settled' };
  } else {
    const recordedByStaff =
      refund.kind === 'refund' && REFUNDS_REPORTED_BY.includes(refund.provider)
        ? await findUnreportedStaffRefund(trx, order.id, refund.amount)
        : undefined;
    if (
      recordedByStaff !== undefined &&
      (await markStaffRefundReported(trx, recordedByStaff, { provider: refund.provider, reference: refund.reference }))
    )
      return { recorded: 'refund', staffHad: true };
    if (!(await addToRefundedTotal(trx, order.id, refund.amount, at)))
      return { refused: 'more than is left to refund' };
  }
  const refundId = await insertProviderRefund(trx, {
    orderId: order.id,
    kind: refund.kind,
    amount: refund.amount,
    provider: refund.provider,
    reference: refund.reference,
    at,
  });
  // The units staff chose to put back were held with the request; they go back with it.
  if (ours) await putBackHeldUnits(trx, order.id, ours.id, refundId);
  if (refund.kind === 'refund')
    await issueCreditNoteFor(
      trx,
      order.id,
      refundId,
      { note: ours?.note, otherwise: `Refund reported by ${refund.provider}` },
      at,
    );
  return { recorded: refund.kind };
}

/**
 * A refund's credit note, issued with it (docs/rules.md#invoices-and-credit-notes), and the
 * customer's refund e-mail queued with both (docs/rules.md#mail). Every refund recorded, by staff
 * or reported by the provider, has its credit note here once, so its e-mail goes once too.
 */
async function issueCreditNoteFor(
  trx: Kysely<Database>,
  orderId: number,
  refundId: number,
  /**
   * Why: the note the refund was asked for with (staff's, a cancellation's, a return's), or, for a
   * refund the provider reported that the shop never asked for, the credit note's `otherwise`
   * (shop's words, so not in the shopper's e-mail).
   */
  reason: { note: string | undefined; otherwise?: string },
  at: string,
): Promise<void> {
  const invoiced = await findOrderToInvoice(trx, orderId);
  const credited = await findRefundToCredit(trx, refundId);
  const note = credited.refund.note ?? reason.note;
  const creditNoteNumber = await issueCreditNote(
    trx,
    {
      ...invoiced,
      refund: { ...credited.refund, note: note ?? reason.otherwise ?? null },
      returned: credited.returned,
    },
    at,
  );
  // The refund's note and the units it put back say what it was for (a cancellation, a return):
  // this is the shopper's one e-mail about it, so those flows send no second one of their own.
  await insertMail(
    trx,
    refundEmail(invoiced.order, {
      amount: credited.refund.amount,
      via: refundRouteOf(credited.refund.provider),
      creditNoteNumber,
      ...(note ? { reason: note } : {}),
      returned: credited.returned.map((line) => ({
        title: line.title,
        sizeName: line.size_name,
        quantity: line.quantity,
      })),
    }),
    at,
  );
}

/** How a refund reaches the customer, by the provider that made it ('manual': the shop, outside any). */
function refundRouteOf(provider: string): RefundRoute {
  if (provider === 'manual') return 'shop';
  return provider.startsWith('paypal') ? 'paypal' : 'card';
}
