import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { OrderListQuery, OrderSummary } from '../../../../contract/admin/orders.ts';
import { formatDateTime, formatPence, humanise } from '../../lib/format.ts';

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, OrderSummary>();

/** Columns the server sorts by, with the two directions of each. */
const sortable: Record<
  string,
  { label: string; orders: [NonNullable<OrderListQuery['sort']>, NonNullable<OrderListQuery['sort']>] }
> = {
  createdAt: { label: 'Placed', orders: ['newest', 'oldest'] },
  total: { label: 'Total', orders: ['total-high', 'total-low'] },
};
const numeric = new Set(['orderNumber', 'total']);

const columns = helper.columns([
  helper.accessor('orderNumber', {
    header: 'Order',
    cell: (info) => <Link to={`/orders/${info.getValue()}`}>{info.getValue()}</Link>,
  }),
  helper.accessor('createdAt', { header: 'Placed', cell: (info) => formatDateTime(info.getValue()) }),
  helper.accessor('status', { header: 'Payment', cell: (info) => humanise(info.getValue()) }),
  helper.accessor('fulfilment', { header: 'Fulfilment', cell: (info) => humanise(info.getValue()) }),
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
    cell: (info) => (info.getValue() ? humanise(info.getValue() ?? '') : ''),
  }),
  helper.accessor('total', {
    header: 'Total',
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

/** The order list as a table (TanStack Table); sorting and paging happen on the server. */
export function OrderTable(props: {
  orders: OrderSummary[];
  sort: OrderListQuery['sort'];
  onSort: (sort: NonNullable<OrderListQuery['sort']>) => void;
}) {
  const table = useTable({ features, columns, data: props.orders });
  const sort = props.sort ?? 'newest';
  return (
    <div className="adm-table-wrap">
      <table className="adm-table">
        <caption className="visually-hidden">Orders</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorting = sortable[header.column.id];
                const direction = sorting?.orders.indexOf(sort);
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={numeric.has(header.column.id) ? 'adm-num' : undefined}
                    // The first order of each pair (newest, highest) runs downwards.
                    aria-sort={direction === 0 ? 'descending' : direction === 1 ? 'ascending' : undefined}
                  >
                    {sorting ? (
                      <button
                        type="button"
                        className="adm-sort"
                        onClick={() => props.onSort(sorting.orders[direction === 0 ? 1 : 0])}
                      >
                        {sorting.label}
                        <span aria-hidden="true">{direction === 0 ? ' ▼' : direction === 1 ? ' ▲' : ' ↕'}</span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className={numeric.has(cell.column.id) ? 'adm-num' : undefined}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
