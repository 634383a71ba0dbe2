import type { Kysely } from 'kysely';
import type { OrderDetail, OrderSummary } from '../../contract/admin/orders.ts';
import type { AuditEntryView } from '../../contract/admin/audit.ts';
import { formatPence } from '../../contract/money.ts';
import { paymentStatusOf } from '../../contract/order-status.ts';
import { auditOf } from '../audit/audit.repository.ts';
import { auditView } from '../audit/audit.service.ts';
import type { Database } from '../db/schema.ts';
import { staffActionsFor, unitsToSend } from './order-lifecycle.ts';
import {
  findFulfilments,
  findOrderLinesWithRestocked,
  findOrderRefunds,
  findPaymentEvents,
  findPaymentsToRefund,
} from './orders.admin-repository.ts';
import { orderOrThrow, type Order } from './order-staff-change.ts';
import { trackingUrlFor } from './tracking-links.ts';

/**
 * An order as the back office shows it (docs/back-office.md#orders): everything about it, its
 * timeline (payments, refunds and staff changes in order) and the moves staff may make next; and
 * the one-line summary the lists show.
 */
export function createOrderDetail(
  db: Kysely<Database>,
  /** Whether the order's refund would go through the provider that took its payment (ADR 0013). */
  refundsThroughProvider: (order: Order) => boolean,
): (orderNumber: number) => Promise<OrderDetail> {
  return async function detail(orderNumber: number): Promise<OrderDetail> {
    const order = await orderOrThrow(db, orderNumber);
    const [lines, fulfilments, refunds, events, toRefund, audit] = await Promise.all([
      findOrderLinesWithRestocked(db, order.id),
      findFulfilments(db, order.id),
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
      refundsThrough: refundsThroughProvider(order) ? 'provider' : 'outside',
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
      deliveryKind: order.delivery_kind,
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
        dispatched: line.dispatched,
        toDispatch: unitsToSend(line),
      })),
      fulfilments: fulfilments.map((fulfilment) => ({
        id: fulfilment.id,
        method: fulfilment.method,
        service: fulfilment.service,
        createdAt: fulfilment.created_at,
        staffEmail: fulfilment.staff_email,
        lines: fulfilment.lines.map((line) => ({
          orderLineId: line.order_line_id,
          title: line.title,
          sizeName: line.size_name,
          quantity: line.quantity,
        })),
        parcels: fulfilment.parcels.map((parcel) => ({
          carrier: parcel.carrier,
          trackingNumber: parcel.tracking_number,
          trackingUrl: trackingUrlFor(parcel.carrier, parcel.tracking_number),
        })),
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
  };
}

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
    payment: paymentStatusOf({
      status: order.status,
      total: order.total_including_delivery,
      refundedTotal: order.refunded_total,
    }),
    fulfilment: order.fulfilment,
    customerName: `${order.firstname} ${order.lastname}`,
    email: order.email,
    postcode: order.delivery_postcode,
    total: order.total_including_delivery,
    refundedTotal: order.refunded_total,
    provider: order.payment_provider,
  };
}

function describeAction(entry: AuditEntryView): string {
  const after = (entry.after ?? {}) as Record<string, unknown>;
  switch (entry.action) {
    case 'order.dispatch': {
      const what = after.fulfilment === 'partially_dispatched' ? 'Part dispatched' : 'Dispatched';
      if (after.untracked) return `${what} untracked by ${String(after.untracked)}`;
      const parcels = Array.isArray(after.parcels) ? after.parcels.length : 1;
      return `${what} with ${String(after.carrier)} (${String(after.trackingNumber)})${parcels > 1 ? ` and ${parcels - 1} more parcel${parcels > 2 ? 's' : ''}` : ''}`;
    }
    case 'order.deliver':
      return 'Marked delivered';
    case 'order.ready-for-collection':
      return 'Made ready for collection';
    case 'order.collect':
      return 'Marked collected';
    case 'order.cancel':
      return `Cancelled${after.reason ? `: ${String(after.reason)}` : ''}`;
    case 'order.refund':
      return `Refund of ${formatPence(Number(after.amount))} recorded`;
    case 'order.note':
      return `Note: ${String(after.note)}`;
    case 'order.delivery-details':
      return 'Delivery details changed';
    case 'order.resend-confirmation':
      return `Confirmation sent again to ${String(after.to)}`;
    case 'order.revoke-order-link':
      return `Order page link revoked; a new one e-mailed to ${String(after.to)}`;
    default:
      return entry.action;
  }
}
