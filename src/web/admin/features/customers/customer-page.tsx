import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { CustomerDetail } from '../../../../contract/admin/customers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { addressLines, formatDateTime } from '../../lib/format.ts';
import { AuditTable } from '../../ui/audit-list.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { CustomerOrders } from './customer-orders.tsx';
import { Field } from '../../ui/field.tsx';
import { customerExportHref, customerQueryOptions, eraseCustomer } from './api/customers.ts';

/** One customer: details, addresses, orders, staff actions; export their data or erase them. */
export default function CustomerPage() {
  const id = Number(useParams().id);
  const customer = useQuery({ ...customerQueryOptions(id), enabled: Number.isInteger(id) });
  return (
    <AdminPage title={customer.data ? customer.data.name || `Customer ${id}` : 'Customer'}>
      <p>
        <Link to="/customers">Back to the customers</Link>
        {' · '}
        <Link to={`/customers/ref/a${id}`}>Orders and total spent at this address</Link>
      </p>
      <ErrorAlert error={customer.error} />
      {customer.data && <CustomerView customer={customer.data} />}
    </AdminPage>
  );
}

function CustomerView({ customer }: { customer: CustomerDetail }) {
  return (
    <>
      <div className="adm-cards">
        <section className="adm-card" aria-labelledby="customer-details">
          <h2 id="customer-details">Details</h2>
          <dl className="adm-facts">
            <dt>E-mail</dt>
            <dd>{customer.email}</dd>
            <dt>Phone</dt>
            <dd>{customer.contactNumber}</dd>
            <dt>Registered</dt>
            <dd>{formatDateTime(customer.createdAt)}</dd>
            <dt>State</dt>
            <dd>{customer.erased ? 'Erased' : customer.verified ? 'Verified' : 'Not verified'}</dd>
          </dl>
        </section>
        {(['billingAddress', 'deliveryAddress'] as const).map((key) => (
          <section key={key} className="adm-card" aria-labelledby={`customer-${key}`}>
            <h2 id={`customer-${key}`}>{key === 'billingAddress' ? 'Billing address' : 'Delivery address'}</h2>
            <address>
              {addressLines(customer[key]).map((line) => (
                <div key={line}>{line}</div>
              ))}
            </address>
          </section>
        ))}
      </div>

      <CustomerOrders orders={customer.orders} />

      <h2>Staff actions</h2>
      <AuditTable entries={customer.audit} caption="Staff actions on this customer" />

      <h2>Their data (UK GDPR)</h2>
      <p>
        <a className="button button-secondary adm-small" href={customerExportHref(customer.id)} download>
          Export data (JSON)
        </a>
      </p>
      {!customer.erased && <EraseForm customer={customer} />}
    </>
  );
}

function EraseForm({ customer }: { customer: CustomerDetail }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const matches = typed.trim().toLowerCase() === customer.email.toLowerCase();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    setBusy(true);
    try {
      await eraseCustomer(customer.id, typed.trim(), queryClient);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form aria-label="Erase the customer" className="adm-form" onSubmit={(event) => void submit(event)}>
      <h3>Erase</h3>
      <p>
        Their personal data is anonymised for good; their orders stay for the accounts with the personal fields blanked.
        This cannot be undone. An order still awaiting payment or still to be dispatched stops it until that order is
        dispatched, cancelled or refunded.
      </p>
      <ErrorAlert error={problem} />
      <Field
        id="erase-confirm"
        label={`Type ${customer.email} to confirm`}
        autoComplete="off"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <button type="submit" className="button adm-small" disabled={!matches || busy}>
        Erase this customer
      </button>
    </form>
  );
}
