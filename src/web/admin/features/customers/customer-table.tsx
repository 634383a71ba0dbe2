import { Link } from 'react-router';
import type { CustomerRow } from '../../../../contract/admin/customers.ts';
import { formatDate, formatPence } from '../../lib/format.ts';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import type { PagerProps } from '../../ui/pager.tsx';

/** Registered (and how the account stands) or a guest: a customer is an e-mail address with orders. */
export function customerKind(customer: Pick<CustomerRow, 'account'>): string {
  const { account } = customer;
  if (!account) return 'Guest';
  if (account.erased) return 'Registered (erased)';
  return account.verified ? 'Registered' : 'Registered (not verified)';
}

const helper = dataColumns<CustomerRow>();
const columns = helper.columns([
  helper.accessor('name', {
    header: 'Name',
    cell: (info) => (
      <Link to={`/customers/ref/${info.row.original.ref}`}>{info.getValue() || info.row.original.email}</Link>
    ),
  }),
  helper.accessor('email', { header: 'E-mail' }),
  helper.display({ id: 'kind', header: 'Customer', cell: ({ row }) => customerKind(row.original) }),
  helper.accessor('paidOrders', { header: 'Paid orders', meta: { numeric: true } }),
  helper.accessor('totalSpent', {
    header: 'Spent',
    meta: { numeric: true },
    cell: (info) => formatPence(info.getValue()),
  }),
  helper.accessor('lastOrderAt', {
    header: 'Last order',
    cell: (info) => {
      const at = info.getValue();
      return at ? formatDate(at) : 'None';
    },
  }),
]);

/** The customers list as a table, registered and guests alike; sorting and paging happen on the server. */
export function CustomerTable(props: { customers: CustomerRow[]; pager?: PagerProps }) {
  return (
    <DataTable
      caption="Customers"
      columns={columns}
      rows={props.customers}
      rowKey={(customer) => customer.ref}
      empty="No customers match."
      {...(props.pager ? { pager: props.pager } : {})}
    />
  );
}
