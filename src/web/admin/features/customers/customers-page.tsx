import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { customerSorts, type CustomerListParams } from '../../../../contract/admin/customers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { customerListQueryOptions } from './api/customers.ts';
import { CustomerTable } from './customer-table.tsx';

type CustomerSort = CustomerListParams['sort'];
const sortLabels: Record<CustomerSort, string> = {
  recent: 'Last order, newest first',
  spent: 'Total spent, most first',
  email: 'E-mail address',
};
const sortOf = (value: string | null): CustomerSort =>
  (customerSorts as readonly string[]).includes(value ?? '') ? (value as CustomerSort) : 'recent';

/**
 * Customers, registered and guests alike (an e-mail address with orders or an account): search by
 * name, e-mail, postcode or address, sorted, in pages; all in the URL.
 */
export default function CustomersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q')?.trim() ?? '';
  const sort = sortOf(searchParams.get('sort'));
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const customers = useQuery(customerListQueryOptions({ q: q || undefined, sort, page }));

  function go(next: { q: string; sort: CustomerSort; page: number }) {
    const params = new URLSearchParams();
    if (next.q) params.set('q', next.q);
    if (next.sort !== 'recent') params.set('sort', next.sort);
    if (next.page > 1) params.set('page', String(next.page));
    setSearchParams(params);
  }
  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    go({ q: String(form.get('q') ?? '').trim(), sort: sortOf(String(form.get('sort'))), page: 1 });
  }

  return (
    <AdminPage title="Customers">
      <form key={`${q}|${sort}`} role="search" aria-label="Find customers" className="adm-filters" onSubmit={search}>
        <Field
          id="customers-q"
          name="q"
          type="search"
          label="Search"
          hint="Name, e-mail address, postcode or the start of an address"
          defaultValue={q}
          maxLength={100}
        />
        <SelectField id="customers-sort" name="sort" label="Sort by" defaultValue={sort}>
          {customerSorts.map((value) => (
            <option key={value} value={value}>
              {sortLabels[value]}
            </option>
          ))}
        </SelectField>
        <div className="adm-field">
          <button type="submit" className="button adm-small">
            Find customers
          </button>
        </div>
      </form>
      <ErrorAlert error={customers.error} />
      {customers.data && (
        <CustomerTable
          customers={customers.data.customers}
          pager={{ label: 'Customer pages', list: customers.data, onPage: (next) => go({ q, sort, page: next }) }}
        />
      )}
    </AdminPage>
  );
}
