import {
  createColumnHelper,
  metaHelper,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Pager, type PagerProps } from './pager.tsx';
import { TableBox } from './table-box.tsx';

/** What a column says about itself beyond its header and cells. */
interface DataColumnMeta {
  /** Right-aligned, in figures of one width (prices, counts), header and cells alike. */
  numeric?: boolean;
  /** A class for the column's cells only, such as `adm-values`. */
  cellClassName?: string;
}

const features = tableFeatures({ columnMeta: metaHelper<DataColumnMeta>() });

/** The column helper for a DataTable of `TRow`: `const columns = dataColumns<OrderSummary>()`. */
export function dataColumns<TRow extends RowData>() {
  return createColumnHelper<typeof features, TRow>();
}

export type DataColumn<TRow extends RowData> = ColumnDef<typeof features, TRow, any>;

/**
 * Sorting done by the server: for each column it sorts by, its two orders, the first running
 * downwards (newest, highest); the header's button asks for the other one.
 */
export interface ServerSorting<TSort extends string> {
  orders: Partial<Record<string, readonly [TSort, TSort]>>;
  current: TSort;
  onSort: (order: TSort) => void;
}

/**
 * A back-office list as a table (TanStack Table): a caption for screen readers, column headers
 * with `scope`, optional sort buttons whose header carries `aria-sort`, a line in place of an empty
 * table, and the pager under it. Sorting and paging happen on the server; the table shows one page.
 */
export function DataTable<TRow extends RowData, TSort extends string = string>(props: {
  caption: string;
  /** Shows the caption above the table, for a page with more than one table; else screen readers alone hear it. */
  captionShown?: boolean;
  columns: Array<DataColumn<TRow>>;
  rows: TRow[];
  /** A row's stable key (default: its position), so a row's own state stays with it. */
  rowKey?: (row: TRow) => string;
  /** Said instead of the table when there are no rows; without it an empty table is shown. */
  empty?: ReactNode;
  sorting?: ServerSorting<TSort>;
  pager?: PagerProps;
}) {
  const { rowKey, sorting } = props;
  const table = useTable({
    features,
    columns: props.columns,
    data: props.rows,
    ...(rowKey ? { getRowId: rowKey } : {}),
  });
  return (
    <>
      {props.empty !== undefined && props.rows.length === 0 ? (
        <p>{props.empty}</p>
      ) : (
        <TableBox label={props.caption}>
          <table className="adm-table">
            <caption className={props.captionShown ? undefined : 'visually-hidden'}>{props.caption}</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const orders = sorting?.orders[header.column.id];
                    const direction = orders && sorting ? orders.indexOf(sorting.current) : -1;
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={header.column.columnDef.meta?.numeric ? 'adm-num' : undefined}
                        aria-sort={direction === 0 ? 'descending' : direction === 1 ? 'ascending' : undefined}
                      >
                        {orders && sorting ? (
                          <SortButton
                            direction={direction}
                            onClick={() => sorting.onSort(orders[direction === 0 ? 1 : 0])}
                          >
                            {shown(header.column.columnDef.header, header.getContext())}
                          </SortButton>
                        ) : (
                          shown(header.column.columnDef.header, header.getContext())
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
                    <td key={cell.id} className={cellClass(cell.column.columnDef.meta)}>
                      {shown(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {props.pager && <Pager {...props.pager} />}
    </>
  );
}

/**
 * A header's or a cell's template, called where TanStack's FlexRender would mount it as a component
 * of its own: a page that builds its columns at each render, around its handlers and what is being
 * typed, then keeps its inputs and their focus from one keystroke to the next. A cell that needs
 * state of its own renders a component (as the stock page's adjustment form does).
 */
function shown<TContext>(template: string | ((context: TContext) => ReactNode) | undefined, context: TContext) {
  return typeof template === 'function' ? template(context) : template;
}

function cellClass(meta: DataColumnMeta | undefined): string | undefined {
  return [meta?.numeric ? 'adm-num' : '', meta?.cellClassName ?? ''].filter(Boolean).join(' ') || undefined;
}

/** A sortable header: its label, and an arrow (hidden from screen readers, which hear aria-sort). */
function SortButton(props: { direction: number; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="adm-sort" onClick={props.onClick}>
      {props.children}
      <span aria-hidden="true">{props.direction === 0 ? ' ▼' : props.direction === 1 ? ' ▲' : ' ↕'}</span>
    </button>
  );
}
