import { Link } from 'react-router';
import type { OrderListQuery, OrderSummary } from '../../../../contract/admin/orders.ts';
import { fulfilmentLabels, paymentStatusLabels } from '../../../../contract/order-status.ts';
import { providerLabel } from '../../../../contract/payments.ts';
import { formatDateTime, formatPence } from '../../lib/format.ts';
import { DataTable, dataColumns, type ServerSorting } from '../../ui/data-table.tsx';
import type { PagerProps } from '../../ui/pager.tsx';

type OrderSort = NonNullable<OrderListQuery['sort']>;

const helper = dataColumns<OrderSummary>();

/** Columns the server sorts by, with the two directions of each. */
const sortOrders: ServerSorting<OrderSort>['orders'] = {
  createdAt: ['newest', 'oldest'],
  total: ['total-high', 'total-low'],
};

const columns = helper.columns([
  helper.accessor('orderNumber', {
    header: 'Order',
    meta: { numeric: true },
    cell: (info) => <Link to={`/orders/${info.getValue()}`}>{info.getValue()}</Link>,
  }),
  helper.accessor('createdAt', { header: 'Placed', cell: (info) => formatDateTime(info.getValue()) }),
  helper.accessor('payment', { header: 'Payment', cell: (info) => paymentStatusLabels[info.getValue()] }),
  helper.accessor('fulfilment', { header: 'Fulfilment', cell: (info) => fulfilmentLabels[info.getValue()] }),
  helper.accessor('customerName', {
    header: 'Customer',
    cell: (info) => (
      <>
        {info.getValue()}
        <br />
        <small>{info.row.original.email}</small>
      </>
    ),
  }),
  helper.accessor('postcode', { header: 'Postcode' }),
  helper.accessor('provider', {
    header: 'Provider',
    cell: (info) => (info.getValue() ? providerLabel(info.getValue() ?? '') : ''),
  }),
  helper.accessor('total', {
    header: 'Total',
    meta: { numeric: true },
    cell: (info) => (
      <>
        {formatPence(info.getValue())}
        {info.row.original.refundedTotal > 0 && (
          <>
            <br />
            <small>refunded {formatPence(info.row.original.refundedTotal)}</small>
          </>
        )}
      </>
    ),
  }),
]);

/** The order list as a table; sorting and paging happen on the server. */
export function OrderTable(props: {
  orders: OrderSummary[];
  sort: OrderListQuery['sort'];
  onSort: (sort: OrderSort) => void;
  pager: PagerProps;
}) {
  return (
    <DataTable
      caption="Orders"
      columns={columns}
      rows={props.orders}
      empty="No orders match these filters."
      sorting={{ orders: sortOrders, current: props.sort ?? 'newest', onSort: props.onSort }}
      pager={props.pager}
    />
  );
}
