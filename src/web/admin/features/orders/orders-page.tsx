import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { type OrderListQuery } from '../../../../contract/admin/orders.ts';
import {
  fulfilmentLabels,
  fulfilments,
  paymentStatusLabels,
  paymentStatuses,
} from '../../../../contract/order-status.ts';
import { paymentProviders, providerLabel } from '../../../../contract/payments.ts';
import { plural } from '../../../../contract/words.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { orderListQueryOptions, ordersCsvHref, packingSlipsHref } from './api/orders.ts';
import { filtersFromSearch, searchOf } from './order-filters.ts';
import { OrderTable } from './order-table.tsx';

type FilterKey = 'payment' | 'paid' | 'fulfilment' | 'waiting' | 'provider' | 'from' | 'to' | 'q';
const filterKeys: FilterKey[] = ['q', 'payment', 'paid', 'fulfilment', 'waiting', 'provider', 'from', 'to'];

/** The order list: filters and search in the URL, sorting, pages, and the same list as CSV. */
export default function OrdersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = filtersFromSearch(searchParams);
  const orders = useQuery(orderListQueryOptions(query));
  // The form's key follows the URL, so the back button puts the fields back as they were.
  const formKey = searchOf({ ...query, page: 1, sort: 'newest' });

  function go(next: Partial<OrderListQuery>) {
    setSearchParams(new URLSearchParams(searchOf({ ...query, ...next })));
  }

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next: Record<string, string | undefined> = {};
    for (const key of filterKeys) next[key] = String(data.get(key) ?? '').trim() || undefined;
    go({ ...(next as Partial<OrderListQuery>), page: 1 });
  }

  return (
    <AdminPage
      title="Orders"
      actions={
        <span className="adm-row">
          {/* The packer's list: every slip it shows, printed at once (the oldest order first). */}
          {query.waiting === 'dispatch' && (
            <a className="button button-secondary adm-small" href={packingSlipsHref} target="_blank" rel="noopener">
              Print packing slips (PDF)
            </a>
          )}
          <a className="button button-secondary adm-small" href={ordersCsvHref(query)} download>
            Download CSV
          </a>
        </span>
      }
    >
      <Filters
        key={formKey}
        query={query}
        onSubmit={applyFilters}
        onClear={() => setSearchParams(new URLSearchParams())}
      />
      <ErrorAlert error={orders.error} />
      {orders.data && (
        <>
          <p role="status" className="visually-hidden">
            {plural(orders.data.total, 'order')} found
          </p>
          <OrderTable
            orders={orders.data.orders}
            sort={query.sort}
            onSort={(sort) => go({ sort, page: 1 })}
            pager={{ label: 'Order pages', list: orders.data, onPage: (page) => go({ page }) }}
          />
        </>
      )}
    </AdminPage>
  );
}

function Filters(props: {
  query: OrderListQuery;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClear: () => void;
}) {
  const { query } = props;
  return (
    <form className="adm-filters" role="search" aria-label="Find orders" onSubmit={props.onSubmit}>
      <Field
        id="orders-q"
        name="q"
        type="search"
        label="Search"
        hint="Order number, postcode, e-mail or name"
        defaultValue={query.q ?? ''}
      />
      <SelectField id="orders-payment" name="payment" label="Payment" defaultValue={query.payment ?? ''}>
        <option value="">Any</option>
        {paymentStatuses.map((payment) => (
          <option key={payment} value={payment}>
            {paymentStatusLabels[payment]}
          </option>
        ))}
      </SelectField>
      <SelectField id="orders-paid" name="paid" label="Paid" defaultValue={query.paid ?? ''}>
        <option value="">Paid or not</option>
        <option value="paid">Paid</option>
        <option value="unpaid">Unpaid</option>
      </SelectField>
      <SelectField id="orders-fulfilment" name="fulfilment" label="Fulfilment" defaultValue={query.fulfilment ?? ''}>
        <option value="">Any</option>
        {fulfilments.map((fulfilment) => (
          <option key={fulfilment} value={fulfilment}>
            {fulfilmentLabels[fulfilment]}
          </option>
        ))}
      </SelectField>
      <SelectField id="orders-waiting" name="waiting" label="Waiting" defaultValue={query.waiting ?? ''}>
        <option value="">Any order</option>
        <option value="dispatch">To dispatch</option>
      </SelectField>
      <SelectField id="orders-provider" name="provider" label="Provider" defaultValue={query.provider ?? ''}>
        <option value="">Any</option>
        {paymentProviders.map((provider) => (
          <option key={provider} value={provider}>
            {providerLabel(provider)}
          </option>
        ))}
      </SelectField>
      <Field id="orders-from" name="from" type="date" label="Placed from" defaultValue={query.from ?? ''} />
      <Field id="orders-to" name="to" type="date" label="Placed to" defaultValue={query.to ?? ''} />
      <div className="adm-row adm-field">
        <button type="submit" className="button adm-small">
          Find orders
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={props.onClear}>
          Clear
        </button>
      </div>
    </form>
  );
}
