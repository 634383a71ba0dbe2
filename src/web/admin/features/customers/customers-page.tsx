import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { CustomerSummary } from '../../../../contract/admin/customers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDate } from '../../lib/format.ts';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { customerListQueryOptions } from './api/customers.ts';

const helper = dataColumns<CustomerSummary>();
const columns = helper.columns([
  helper.accessor('name', {
    header: 'Name',
    cell: (info) => (
      <Link to={`/customers/${info.row.original.id}`}>{info.getValue() || `Customer ${info.row.original.id}`}</Link>
    ),
  }),
  helper.accessor('email', { header: 'E-mail' }),
  helper.accessor('createdAt', { header: 'Registered', cell: (info) => formatDate(info.getValue()) }),
  helper.display({
    id: 'state',
    header: 'State',
    cell: ({ row: { original: customer } }) =>
      customer.erased ? 'Erased' : customer.verified ? 'Verified' : 'Not verified',
  }),
]);

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
          <DataTable
            caption="Customers"
            columns={columns}
            rows={customers.data.customers}
            empty="No customers match."
            pager={{ label: 'Customer pages', list: customers.data, onPage: (next) => go({ q, page: next }) }}
          />
        </>
      )}
    </AdminPage>
  );
}
