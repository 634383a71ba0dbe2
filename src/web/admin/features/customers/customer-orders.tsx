import { Link } from 'react-router';
import type { CustomerRecord } from '../../../../contract/admin/customers.ts';
import { fulfilmentLabels, paymentStatusLabels } from '../../../../contract/order-status.ts';
import { formatDateTime, formatPence } from '../../lib/format.ts';
import { TableBox } from '../../ui/table-box.tsx';

/** A customer's orders, newest first, each linked, read as the order list reads them. */
export function CustomerOrders({ orders }: { orders: CustomerRecord['orders'] }) {
  return (
    <>
      <h2>Orders</h2>
      {orders.length === 0 ? (
        <p>No orders.</p>
      ) : (
        <TableBox label={"The customer's orders"}>
          <table className="adm-table">
            <caption className="visually-hidden">The customer's orders</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Payment</th>
                <th scope="col">Fulfilment</th>
                <th scope="col">Postcode</th>
                <th scope="col" className="adm-num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <td>
                    <Link to={`/orders/${order.orderNumber}`}>{order.orderNumber}</Link>
                  </td>
                  <td>{formatDateTime(order.createdAt)}</td>
                  <td>{paymentStatusLabels[order.payment]}</td>
                  <td>{fulfilmentLabels[order.fulfilment]}</td>
                  <td>{order.postcode}</td>
                  <td className="adm-num">
                    {formatPence(order.total)}
                    {order.refundedTotal > 0 && (
                      <>
                        <br />
                        <small>refunded {formatPence(order.refundedTotal)}</small>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </>
  );
}
