import { useQuery, useQueryClient } from '@tanstack/react-query';
import { plural } from '../../../../contract/words.ts';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { stockReasons, type StockListQuery, type StockRow } from '../../../../contract/admin/stock.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { useMayCall } from '../../lib/access.ts';
import { formatPence, humanise } from '../../lib/format.ts';
import { problemText } from '../../lib/problem.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { adjustStock, setLowStockThreshold, stockListQueryOptions, stockSearchOf } from './api/stock.ts';

/**
 * Every size of every product: found by title or size, low stock only when asked, and adjusted in
 * its row by a change in units with a reason (never by typing a new level over a checkout's).
 */
export default function StockPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query: StockListQuery = {
    q: searchParams.get('q') ?? undefined,
    low: searchParams.get('low') === 'true' ? 'true' : undefined,
    page: Number(searchParams.get('page') ?? 1) || 1,
  };
  const stock = useQuery(stockListQueryOptions(query));
  const may = useMayCall();

  function go(next: Partial<StockListQuery>) {
    setSearchParams(new URLSearchParams(stockSearchOf({ ...query, ...next }).slice(1)));
  }

  function find(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    go({
      q: String(data.get('q') ?? '').trim() || undefined,
      low: data.get('low') ? 'true' : undefined,
      page: 1,
    });
  }

  return (
    <AdminPage title="Stock">
      <form key={stockSearchOf(query)} className="adm-filters" role="search" aria-label="Find sizes" onSubmit={find}>
        <Field
          id="stock-q"
          name="q"
          type="search"
          label="Search"
          hint="Product title or size"
          defaultValue={query.q ?? ''}
        />
        <div className="adm-field adm-check">
          <input id="stock-low" name="low" type="checkbox" defaultChecked={query.low === 'true'} />
          <label htmlFor="stock-low">
            Low stock only{stock.data ? ` (${stock.data.lowStockThreshold} or fewer)` : ''}
          </label>
        </div>
        <div className="adm-row adm-field">
          <button type="submit" className="button adm-small">
            Find sizes
          </button>
        </div>
      </form>
      <ErrorAlert error={stock.error} />
      {stock.data && (
        <>
          <p role="status" className="visually-hidden">
            {plural(stock.data.total, 'size')} found
          </p>
          <DataTable
            caption="Sizes and their stock"
            columns={columns}
            rows={stock.data.rows}
            rowKey={(row) => String(row.stockId)}
            empty="No sizes match."
            pager={{ label: 'Stock pages', list: stock.data, onPage: (page) => go({ page }) }}
          />
          {may('PUT /settings/low-stock-threshold') && <ThresholdForm current={stock.data.lowStockThreshold} />}
        </>
      )}
    </AdminPage>
  );
}

const helper = dataColumns<StockRow>();
const columns = helper.columns([
  helper.accessor('title', {
    header: 'Product',
    cell: (info) => <a href={`/products/details/${info.row.original.urlKey}`}>{info.getValue()}</a>,
  }),
  helper.accessor('sizeName', { header: 'Size' }),
  helper.accessor('price', { header: 'Price', meta: { numeric: true }, cell: (info) => formatPence(info.getValue()) }),
  helper.accessor('stock', { header: 'In stock', meta: { numeric: true } }),
  helper.display({ id: 'adjust', header: 'Adjust', cell: (info) => <AdjustInRow row={info.row.original} /> }),
  helper.display({
    id: 'history',
    header: 'History',
    cell: (info) => (
      <Link to={`/stock/${info.row.original.stockId}`}>
        History<span className="visually-hidden"> of {label(info.row.original)}</span>
      </Link>
    ),
  }),
]);

const label = (row: StockRow) => `${row.title}, ${row.sizeName}`;

/** The inline edit: a change in units (+ received, - damaged) and why; the level shown updates from the answer. */
function AdjustInRow({ row }: { row: StockRow }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `adjust-${row.stockId}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const delta = Number(data.get('delta'));
    setProblem(null);
    if (!Number.isInteger(delta) || delta === 0) {
      setProblem('Enter a change in units, such as 5 or -2');
      return;
    }
    setBusy(true);
    try {
      await adjustStock(
        row.stockId,
        { delta, reason: String(data.get('reason')) as (typeof stockReasons)[number] },
        queryClient,
      );
      form.reset();
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="adm-row" aria-label={`Adjust ${label(row)}`} onSubmit={(event) => void submit(event)}>
      <label className="visually-hidden" htmlFor={`${id}-delta`}>
        Change in units for {label(row)}
      </label>
      <input
        id={`${id}-delta`}
        name="delta"
        className="input adm-narrow"
        inputMode="numeric"
        placeholder="+5 or -2"
        autoComplete="off"
        aria-describedby={problem ? `${id}-error` : undefined}
      />
      <label className="visually-hidden" htmlFor={`${id}-reason`}>
        Reason for {label(row)}
      </label>
      <select id={`${id}-reason`} name="reason" className="input" defaultValue="received">
        {stockReasons.map((reason) => (
          <option key={reason} value={reason}>
            {humanise(reason)}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-secondary adm-small" disabled={busy}>
        Apply<span className="visually-hidden"> to {label(row)}</span>
      </button>
      {problem !== null && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The owner's threshold for "low stock" here and on the dashboard. */
function ThresholdForm({ current }: { current: number }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const threshold = Number(new FormData(event.currentTarget).get('threshold'));
    setProblem(null);
    setSaved(false);
    try {
      await setLowStockThreshold(threshold, queryClient);
      setSaved(true);
    } catch (error) {
      setProblem(error);
    }
  }

  return (
    <form key={current} className="adm-form" aria-label="Low-stock threshold" onSubmit={(event) => void submit(event)}>
      <h2>Low-stock threshold</h2>
      <ErrorAlert error={problem} />
      <Field
        id="low-stock-threshold"
        name="threshold"
        type="number"
        min={0}
        max={10000}
        label="Low stock at or below (units)"
        hint="Used here and on the dashboard."
        defaultValue={current}
      />
      <button type="submit" className="button adm-small">
        Save threshold
      </button>
      {saved && <p role="status">Saved.</p>}
    </form>
  );
}
