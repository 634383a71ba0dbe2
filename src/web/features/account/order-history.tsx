import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatPence } from '../../lib/format.ts';
import type { OrderStatus } from '../../../contract/order-status.ts';
import { shownTransactionId } from '../../../contract/transaction-id.ts';
import { accountOrdersQueryOptions } from './api/account.ts';

const statusNames: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid',
  payment_failed: 'Payment failed',
  expired: 'Expired (not paid)',
  cancelled: 'Cancelled',
};

/** Your Orders: each order's lines, delivery, discount, totals, date and transaction, and a paid one's own page. */
export function OrderHistory() {
  const orders = useQuery(accountOrdersQueryOptions());
  return (
    <section id="orders" aria-labelledby="orders-heading">
      <h2 id="orders-heading">Your Orders</h2>
      {orders.data?.length === 0 && <p>You have no orders yet.</p>}
      {orders.data?.map((order) => (
        <article
          key={order.orderNumber}
          aria-labelledby={`order-${order.orderNumber}`}
          style={{ borderTop: '1px solid var(--color-border)', padding: '0.75rem 0' }}
        >
          <h3 id={`order-${order.orderNumber}`}>
            Order {order.orderNumber}: {statusNames[order.status] ?? order.status}
          </h3>
          <ul>
            {order.lines.map((line, i) => (
              <li key={i}>
                {line.quantity} × {line.title} ({line.sizeName}): {formatPence(line.lineTotal)}
              </li>
            ))}
          </ul>
          <p>
            Delivery {formatPence(order.deliveryPrice)}
            {order.discountAmount > 0 && `, discount -${formatPence(order.discountAmount)}`}. Total{' '}
            {formatPence(order.total)} (VAT {formatPence(order.totalVat)}). Placed{' '}
            {new Date(order.createdAt).toLocaleDateString('en-GB')}.
            {order.transactionId && ` Transaction ${shownTransactionId(order.transactionId)}.`}
          </p>
          {order.orderPagePath && (
            <p>
              <Link to={order.orderPagePath}>
                View order {order.orderNumber}
                <span className="visually-hidden">: its progress, tracking and invoice</span>
              </Link>
            </p>
          )}
        </article>
      ))}
    </section>
  );
}
