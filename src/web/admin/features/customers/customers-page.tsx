import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDate } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { Pager } from '../../ui/pager.tsx';
import { customerListQueryOptions } from './api/customers.ts';

/** Customers: search by e-mail or name (in the URL), newest first, in pages. */
export default function CustomersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q')?.trim() ?? '';
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const customers = useQuery(customerListQueryOptions({ q: q || undefined, page }));

  function go(next: { q: string; page: number }) {
    const params = new URLSearchParams();
    if (next.q) params.set('q', next.q);
    if (next.page > 1) params.set('page', String(next.page));
    setSearchParams(params);
  }
  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    go({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim(), page: 1 });
  }

  return (
    <AdminPage title="Customers">
      <form key={q} role="search" aria-label="Find customers" className="adm-filters" onSubmit={search}>
        <Field id="customers-q" name="q" type="search" label="Search" hint="E-mail address or name" defaultValue={q} />
        <div className="adm-field">
          <button type="submit" className="button adm-small">
            Find customers
          </button>
        </div>
      </form>
      <ErrorAlert error={customers.error} />
      {customers.data && (
        <>
          {customers.data.customers.length === 0 ? (
            <p>No customers match.</p>
          ) : (
            <div className="adm-table-wrap">
              <table className="adm-table">
                <caption className="visually-hidden">Customers</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Registered</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {customers.data.customers.map((customer) => (
                    <tr key={customer.id}>
                      <td>
                        <Link to={`/customers/${customer.id}`}>{customer.name || `Customer ${customer.id}`}</Link>
                      </td>
                      <td>{customer.email}</td>
                      <td>{formatDate(customer.createdAt)}</td>
                      <td>{customer.erased ? 'Erased' : customer.verified ? 'Verified' : 'Not verified'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            label="Customer pages"
            page={customers.data.page}
            pageSize={customers.data.pageSize}
            total={customers.data.total}
            onPage={(next) => go({ q, page: next })}
          />
        </>
      )}
    </AdminPage>
  );
}
