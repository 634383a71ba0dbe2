import type { OrderDetail } from '../../../../contract/admin/orders.ts';
import { formatDateTime, formatPence, humanise } from '../../lib/format.ts';

/**
 * Payments the order received and should not keep (a second payment for an order already paid, or
 * a payment for an order staff cancelled): shown first, for staff to send each back in the
 * provider's own pages, since the shop's refund reaches only the payment a paid order kept.
 */
export function PaymentsToRefund({ order }: { order: Pick<OrderDetail, 'paymentsToRefund'> }) {
  if (order.paymentsToRefund.length === 0) return null;
  return (
    <section className="adm-card" aria-labelledby="order-payments-to-refund">
      <h2 id="order-payments-to-refund">Payments to refund</h2>
      <p className="adm-alert">
        This order received {order.paymentsToRefund.length === 1 ? 'a payment' : 'payments'} it should not keep. Refund
        each below in the provider’s own pages (PayPal’s activity, or MySagePay for Opayo); the refund here reaches only
        the payment a paid order kept.
      </p>
      <ul>
        {order.paymentsToRefund.map((payment) => (
          <li key={payment.id}>
            {formatDateTime(payment.receivedAt)}: {formatPence(payment.amount)} by {humanise(payment.provider)},
            reference {payment.reference} ({payment.reason})
          </li>
        ))}
      </ul>
    </section>
  );
}
