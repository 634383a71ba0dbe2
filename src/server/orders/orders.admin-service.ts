import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type {
  DispatchInput,
  OrderDetail,
  OrderList,
  OrderListQuery,
  OrderSummary,
  RefundInput,
} from '../../contract/admin/orders.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { formatPence } from '../../contract/money.ts';
import { auditOf, recordAudit } from '../audit/audit.repository.ts';
import { auditView } from '../audit/audit.service.ts';
import type { AuditEntryView } from '../../contract/admin/audit.ts';
import type { Database, OrderTable } from '../db/schema.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import { dispatchEmail } from '../payments/order-emails.ts';
import type { Staff } from '../staff/staff.service.ts';
import { findUnconfirmedRefundRequests } from '../payments/payments.repository.ts';
import {
  cancelOrder,
  deliverOrder,
  dispatchOrder,
  recordRefund,
  refundThroughProvider,
  settleUnconfirmedRefund,
  staffActionsFor,
  type RefundingProvider,
  type RefundRefusal,
} from './order-lifecycle.ts';
import {
  findOrderByNumber,
  findOrderLinesWithRestocked,
  findOrderRefunds,
  findPaymentEvents,
  findPaymentsToRefund,
  listOrders,
  ordersForExport,
} from './orders.admin-repository.ts';
import { csvHeader, csvLine, orderCsvLine } from './orders-csv.ts';
import { trackingUrlFor } from './tracking-links.ts';

/**
 * Orders in the back office (docs/back-office.md#orders): find them, see everything about one,
 * and move it on through the lifecycle (src/server/orders/order-lifecycle.ts). Each staff change
 * is one transaction with its audit entry and, for a dispatch, the customer's e-mail.
 */

type Order = Selectable<OrderTable>;
const CSV_BATCH = 1_000;
/** How old a refund the provider never confirmed must be before it is asked about again. */
const UNCONFIRMED_REFUND_MINUTES = 10;
/** How many of those the sweep reads at once. */
const UNCONFIRMED_REFUNDS_BATCH = 100;

const refusals: Record<RefundRefusal, string> = {
  'not refundable': 'Only a paid order can be refunded.',
  'more than paid': 'That is more than is left to refund on this order.',
  'no such line': 'A line to restock is not on this order.',
  'more than sold': 'That puts back more units of a line than were sold.',
  'not held':
    'This order’s units were never taken from stock (it was paid after they had gone to another order), so there is nothing to put back. Record the refund without restocking.',
};

export function createOrdersAdminService(
  db: Kysely<Database>,
  options: {
    /** Which database it is: the stock given back when staff cancel is locked as that one needs. */
    now?: () => Date;
    csvBatch?: number;
    /** The provider that took an order's payment, to refund through it where it can (ADR 0013). */
    providerOf?: (id: string | null) => RefundingProvider | undefined;
    /** Told of each order staff cancelled or refunded, once it committed (the metrics). */
    onOrderEvent?: (event: 'cancelled' | 'refunded') => void;
  },
) {
  const csvBatch = options.csvBatch ?? CSV_BATCH;
  const refunder = (order: Pick<Order, 'payment_provider' | 'transaction_id'>) => {
    const provider = options.providerOf?.(order.payment_provider);
    return provider?.refund && (provider.canRefund?.(order) ?? true)
      ? (provider as Required<Pick<RefundingProvider, 'refund'>> & RefundingProvider)
      : undefined;
  };
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  async function orderOrThrow(orderNumber: number, trx: Kysely<Database> = db): Promise<Order> {
    const order = await findOrderByNumber(trx, orderNumber);
    if (!order) throw new NotFoundError(`There is no order ${orderNumber}`);
    return order;
  }

  function refuse(message: string): never {
    throw new RefusedError(409, errorCodes.conflict, message);
  }

  /** One staff change: the move, its audit entry and what else must land with it, or none of it. */
  async function change(
    orderNumber: number,
    staff: Staff,
    action: string,
    move: (trx: Kysely<Database>, order: Order, at: string) => Promise<{ after: object } | { refused: string }>,
  ): Promise<OrderDetail> {
    await db.transaction().execute(async (trx) => {
      const order = await orderOrThrow(orderNumber, trx);
      const at = now();
      const result = await move(trx, order, at);
      if ('refused' in result) refuse(result.refused);
      await recordAudit(trx, {
        staff,
        action,
        entityType: 'order',
        entityId: order.order_number,
        before: { status: order.status, fulfilment: order.fulfilment, refundedTotal: order.refunded_total },
        after: result.after,
        at,
      });
    });
    return detail(orderNumber);
  }

  /**
   * A refund through the provider (ADR 0013), by the lifecycle's refund workflow: the amount
   * reserved and the units held, the provider asked, then the refund settled (with its audit entry)
   * or, refused, released. When the provider does not answer, the amount stays reserved until it
   * reports the refund or the sweep learns what became of it.
   */
  async function refundThrough(
    provider: Required<Pick<RefundingProvider, 'refund'>> & RefundingProvider,
    orderNumber: number,
    refund: { amount: number; reason: string; restock: Array<{ lineId: number; quantity: number }> },
    staff: Staff,
  ): Promise<OrderDetail> {
    const order = await orderOrThrow(orderNumber);
    const answer = await refundThroughProvider(
      db,
      provider,
      {
        orderId: order.id,
        amount: refund.amount,
        requestId: `refund-${randomUUID()}`,
        note: refund.reason,
        restock: refund.restock,
      },
      {
        now,
        // The refund was made: from here on the answer says so, whatever else happens.
        onRefunded: (trx, current, at, reference) =>
          recordAudit(trx, {
            staff,
            action: 'order.refund',
            entityType: 'order',
            entityId: current.order_number,
            before: { status: current.status, fulfilment: current.fulfilment, refundedTotal: current.refunded_total },
            after: {
              refundedTotal: current.refunded_total,
              amount: refund.amount,
              reason: refund.reason,
              restock: refund.restock,
              provider: provider.id,
              providerReference: reference,
            },
            at,
          }),
      },
    );
    if ('refused' in answer) refuse(refusals[answer.refused]);
    if (answer.outcome === 'refused')
      refuse(`The provider refused the refund (${answer.reason}); nothing was refunded.`);
    if (answer.outcome === 'unknown')
      refuse(
        'The provider did not confirm the refund. The amount stays reserved until it reports the refund; check its activity before trying again.',
      );
    return detail(orderNumber);
  }

  /**
   * Refunds a provider never confirmed (no answer to the refund nor to the look-up after it), asked
   * again once they are ten minutes old, so no refund staff are waiting on is taken for a lost one:
   * one the provider made is recorded with its units put back; one it has no record of gives its
   * amount and units back (the refund workflow's settle and release). Providers that report their
   * refunds themselves are left to do so.
   */
  async function settleUnconfirmedRefunds(): Promise<number> {
    const before = new Date(Date.parse(now()) - UNCONFIRMED_REFUND_MINUTES * 60_000).toISOString();
    let settled = 0;
    // Every one, a batch at a time: requests no look-up can settle (PayPal's wait for its webhook)
    // stay pending, and must not keep the ones after them from being looked at.
    let afterId = 0;
    for (;;) {
      const batch = await findUnconfirmedRefundRequests(db, before, afterId, UNCONFIRMED_REFUNDS_BATCH);
      for (const request of batch)
        if (await settleUnconfirmedRefund(db, options.providerOf?.(request.provider), request, now)) settled += 1;
      if (batch.length < UNCONFIRMED_REFUNDS_BATCH) return settled;
      afterId = batch.at(-1)!.id;
    }
  }

  async function detail(orderNumber: number): Promise<OrderDetail> {
    const order = await orderOrThrow(orderNumber);
    const [lines, refunds, events, toRefund, audit] = await Promise.all([
      findOrderLinesWithRestocked(db, order.id),
      findOrderRefunds(db, order.id),
      findPaymentEvents(db, order.id),
      findPaymentsToRefund(db, order.id),
      auditOf(db, 'order', order.order_number),
    ]);
    const auditViews = audit.map(auditView);
    const timeline = [
      { at: order.created_at, text: `Order placed (${formatPence(order.total_including_delivery)})` },
      ...events.map((event) => ({
        at: event.received_at,
        text: `${event.provider}: ${event.provider_status} (${event.outcome})`,
      })),
      ...(order.paid_at
        ? [{ at: order.paid_at, text: `Paid by ${order.payment_provider ?? 'unknown provider'}` }]
        : []),
      ...toRefund.map((payment) => ({
        at: payment.received_at,
        text: `${payment.reason === 'paid twice' ? 'Paid twice' : 'Paid after staff cancelled it'}: ${formatPence(payment.amount)} by ${payment.provider} (${payment.reference}), to refund`,
      })),
      ...refunds.map((refund) => ({
        at: refund.recorded_at,
        text: `${refund.kind === 'refund' ? 'Refund' : refund.kind === 'reversal' ? 'Reversal' : 'Reversal cancelled'} of ${formatPence(refund.amount)} (${refund.provider})${refund.note ? `: ${refund.note}` : ''}`,
      })),
      ...auditViews.map((entry) => ({ at: entry.at, text: `${describeAction(entry)} by ${entry.staffEmail}` })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    return {
      ...summaryOf(order),
      refundsThrough: refunder(order) ? 'provider' : 'outside',
      code: order.order_code,
      customerId: order.customer_id,
      contactNumber: order.contact_number,
      billingAddress: {
        line1: order.billing_line1,
        line2: order.billing_line2,
        line3: order.billing_line3,
        townCity: order.billing_town_city,
        postcode: order.billing_postcode,
        country: order.billing_country_name,
      },
      deliveryAddress: {
        line1: order.delivery_line1,
        line2: order.delivery_line2,
        line3: order.delivery_line3,
        townCity: order.delivery_town_city,
        postcode: order.delivery_postcode,
        country: order.delivery_country_name,
      },
      deliveryMethod: order.delivery_method_name,
      deliveryPrice: order.delivery_price,
      itemsTotal: order.items_total,
      discount: order.discount_amount,
      voucherCode: order.voucher_code,
      totalVat: order.total_vat,
      reservedUntil: order.reserved_until,
      paidAt: order.paid_at,
      transactionId: order.transaction_id,
      paymentNote: order.payment_note,
      carrier: order.carrier,
      trackingNumber: order.tracking_number,
      trackingUrl: trackingUrlFor(order.carrier, order.tracking_number),
      dispatchedAt: order.dispatched_at,
      deliveredAt: order.delivered_at,
      lines: lines.map((line) => ({
        id: line.id,
        productId: line.product_id,
        productStockId: line.product_stock_id,
        title: line.title,
        sizeName: line.size_name,
        unitPrice: line.unit_price,
        quantity: line.quantity,
        lineTotal: line.line_total,
        restocked: Number(line.restocked),
      })),
      refunds: refunds.map((refund) => ({
        id: refund.id,
        kind: refund.kind,
        amount: refund.amount,
        provider: refund.provider,
        reference: refund.provider_reference,
        recordedAt: refund.recorded_at,
      })),
      paymentEvents: events.map((event) => ({
        id: event.id,
        provider: event.provider,
        providerStatus: event.provider_status,
        outcome: event.outcome,
        receivedAt: event.received_at,
      })),
      paymentsToRefund: toRefund.map((payment) => ({
        id: payment.id,
        provider: payment.provider,
        reference: payment.reference,
        amount: payment.amount,
        reason: payment.reason,
        receivedAt: payment.received_at,
      })),
      audit: auditViews,
      timeline,
      actions: staffActionsFor(order),
    };
  }

  return {
    async list(query: OrderListQuery & { page: number; pageSize: number }): Promise<OrderList> {
      const { rows, total } = await listOrders(db, query);
      return { orders: rows.map(summaryOf), total, page: query.page, pageSize: query.pageSize };
    },

    detail,
    settleUnconfirmedRefunds,

    /** The list's orders as CSV, every page of them, a batch at a time. */
    async *csv(query: OrderListQuery): AsyncGenerator<string> {
      yield csvLine(csvHeader);
      let beforeId: number | undefined;
      for (;;) {
        const batch = await ordersForExport(db, query, beforeId, csvBatch);
        for (const order of batch) yield orderCsvLine(order);
        if (batch.length < csvBatch) return;
        beforeId = batch.at(-1)!.id;
      }
    },

    /** Dispatch: carrier and tracking number kept, and the customer's e-mail queued with it. */
    dispatch(orderNumber: number, parcel: DispatchInput, staff: Staff): Promise<OrderDetail> {
      const carrier = parcel.carrier.trim();
      const trackingNumber = parcel.trackingNumber.trim();
      return change(orderNumber, staff, 'order.dispatch', async (trx, order, at) => {
        if (!(await dispatchOrder(trx, order.id, { carrier, trackingNumber }, at))) {
          return { refused: dispatchRefusal(order) };
        }
        const trackingUrl = trackingUrlFor(carrier, trackingNumber);
        await insertMail(trx, dispatchEmail(order, { carrier, trackingNumber, trackingUrl }), at);
        return { after: { fulfilment: 'dispatched', carrier, trackingNumber } };
      });
    },

    deliver(orderNumber: number, staff: Staff): Promise<OrderDetail> {
      return change(orderNumber, staff, 'order.deliver', async (trx, order, at) =>
        (await deliverOrder(trx, order.id, at))
          ? { after: { fulfilment: 'delivered' } }
          : { refused: 'Only a dispatched order can be marked delivered.' },
      );
    },

    async cancel(orderNumber: number, reason: string | undefined, staff: Staff): Promise<OrderDetail> {
      const cancelled = await change(orderNumber, staff, 'order.cancel', async (trx, order, at) =>
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
      return cancelled;
    },

    /**
     * A refund: through the provider that took the payment where it can refund (ADR 0013), else
     * a refund made outside the shop, recorded; either with an optional restock of chosen lines.
     */
    async refund(orderNumber: number, refund: RefundInput, staff: Staff): Promise<OrderDetail> {
      const restock = refund.restock ?? [];
      const provider = refunder(await orderOrThrow(orderNumber));
      const refunded = provider
        ? await refundThrough(provider, orderNumber, { ...refund, restock }, staff)
        : await recordRefundMadeOutside(orderNumber, { ...refund, restock }, staff);
      options.onOrderEvent?.('refunded');
      return refunded;
    },
  };

  function recordRefundMadeOutside(
    orderNumber: number,
    refund: RefundInput & { restock: Array<{ lineId: number; quantity: number }> },
    staff: Staff,
  ): Promise<OrderDetail> {
    const { restock } = refund;
    return change(orderNumber, staff, 'order.refund', async (trx, order, at) => {
      const result = await recordRefund(trx, order, { amount: refund.amount, note: refund.reason, restock }, at);
      if ('refused' in result) return { refused: refusals[result.refused] };
      return {
        after: {
          refundedTotal: order.refunded_total + (result.counted ? refund.amount : 0),
          amount: refund.amount,
          reason: refund.reason,
          restock,
        },
      };
    });
  }
}

export type OrdersAdminService = ReturnType<typeof createOrdersAdminService>;

export function summaryOf(
  order: Pick<
    Order,
    | 'id'
    | 'order_number'
    | 'created_at'
    | 'status'
    | 'fulfilment'
    | 'firstname'
    | 'lastname'
    | 'email'
    | 'delivery_postcode'
    | 'total_including_delivery'
    | 'refunded_total'
    | 'payment_provider'
  >,
): OrderSummary {
  return {
    id: order.id,
    orderNumber: order.order_number,
    createdAt: order.created_at,
    status: order.status,
    fulfilment: order.fulfilment,
    customerName: `${order.firstname} ${order.lastname}`,
    email: order.email,
    postcode: order.delivery_postcode,
    total: order.total_including_delivery,
    refundedTotal: order.refunded_total,
    provider: order.payment_provider,
  };
}

function dispatchRefusal(order: Order): string {
  if (order.status !== 'paid') return 'Only a paid order can be dispatched.';
  if (order.fulfilment !== 'unfulfilled') return 'This order has been dispatched already.';
  return 'This order has been refunded in full, so there is nothing to send.';
}

function describeAction(entry: AuditEntryView): string {
  const after = (entry.after ?? {}) as Record<string, unknown>;
  switch (entry.action) {
    case 'order.dispatch':
      return `Dispatched with ${String(after.carrier)} (${String(after.trackingNumber)})`;
    case 'order.deliver':
      return 'Marked delivered';
    case 'order.cancel':
      return `Cancelled${after.reason ? `: ${String(after.reason)}` : ''}`;
    case 'order.refund':
      return `Refund of ${formatPence(Number(after.amount))} recorded`;
    default:
      return entry.action;
  }
}
