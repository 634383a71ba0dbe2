import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { CustomerRecord } from '../../../../contract/admin/customers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDateTime, formatPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { CustomerOrders } from './customer-orders.tsx';
import { customerRecordQueryOptions } from './api/customers.ts';
import { customerKind } from './customer-table.tsx';

/**
 * One customer, a guest or registered, as an e-mail address with orders: what they bought and
 * spent, each order linked; a registered customer's account (details, export, erasure) is linked.
 */
export default function CustomerRecordPage() {
  const ref = useParams().ref ?? '';
  const customer = useQuery(customerRecordQueryOptions(ref));
  return (
    <AdminPage title={customer.data ? customer.data.name || customer.data.email : 'Customer'}>
      <p>
        <Link to="/customers">Back to the customers</Link>
      </p>
      <ErrorAlert error={customer.error} />
      {customer.data && <CustomerRecordView customer={customer.data} />}
    </AdminPage>
  );
}

function CustomerRecordView({ customer }: { customer: CustomerRecord }) {
  return (
    <>
      <section className="adm-card" aria-labelledby="customer-summary">
        <h2 id="customer-summary">Customer</h2>
        <dl className="adm-facts">
          <dt>E-mail</dt>
          <dd>{customer.email}</dd>
          <dt>Customer</dt>
          <dd>{customerKind(customer)}</dd>
          <dt>Orders placed</dt>
          <dd>{customer.orderCount}</dd>
          <dt>Paid orders</dt>
          <dd>{customer.paidOrders}</dd>
          <dt>Total spent</dt>
          <dd>{formatPence(customer.totalSpent)}</dd>
          <dt>Last order</dt>
          <dd>{customer.lastOrderAt ? formatDateTime(customer.lastOrderAt) : 'None'}</dd>
        </dl>
        {customer.account && (
          <p>
            <Link to={`/customers/${customer.account.id}`}>The account: details, addresses, export and erasure</Link>
          </p>
        )}
      </section>

      <CustomerOrders orders={customer.orders} />
    </>
  );
}
