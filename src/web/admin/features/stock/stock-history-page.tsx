import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { stockAdjustmentSchema, stockReasons, type StockAdjustmentInput } from '../../../../contract/admin/stock.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDateTime, formatPence, humanise } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { adjustStock, stockHistoryQueryOptions } from './api/stock.ts';
import { TableBox } from '../../ui/table-box.tsx';

/** One size: its level, an adjustment with a note, and every adjustment so far (who, when, why, level after). */
export default function StockHistoryPage() {
  const stockId = Number(useParams().stockId);
  const history = useQuery(stockHistoryQueryOptions(stockId));
  const row = history.data?.row;
  return (
    <AdminPage title={row ? `Stock: ${row.title}, ${row.sizeName}` : 'Stock'}>
      <p>
        <Link to="/stock">All stock</Link>
      </p>
      <ErrorAlert error={history.error} />
      {row && history.data && (
        <>
          <dl className="adm-facts">
            <dt>In stock</dt>
            <dd>{row.stock}</dd>
            <dt>Price</dt>
            <dd>{formatPence(row.price)}</dd>
            <dt>Product page</dt>
            <dd>
              <a href={`/products/details/${row.urlKey}`}>{row.title}</a>
            </dd>
          </dl>
          <h2>Adjust</h2>
          <AdjustForm stockId={stockId} />
          <h2>History</h2>
          {history.data.adjustments.length === 0 ? (
            <p>No adjustments yet.</p>
          ) : (
            <TableBox label="Adjustments, newest first">
              <table className="adm-table">
                <caption className="visually-hidden">Adjustments, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col" className="adm-num">
                      Change
                    </th>
                    <th scope="col">Reason</th>
                    <th scope="col">Note</th>
                    <th scope="col" className="adm-num">
                      Level after
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {history.data.adjustments.map((adjustment) => (
                    <tr key={adjustment.id}>
                      <td>{formatDateTime(adjustment.at)}</td>
                      <td>{adjustment.staffEmail}</td>
                      <td className="adm-num">{adjustment.delta > 0 ? `+${adjustment.delta}` : adjustment.delta}</td>
                      <td>{humanise(adjustment.reason)}</td>
                      <td>{adjustment.note ?? ''}</td>
                      <td className="adm-num">{adjustment.stockAfter}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
        </>
      )}
    </AdminPage>
  );
}

function AdjustForm({ stockId }: { stockId: number }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<StockAdjustmentInput>({
    resolver: zodResolver(stockAdjustmentSchema),
    defaultValues: { reason: 'received', note: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await adjustStock(stockId, values, queryClient);
      form.reset();
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <form noValidate aria-label="Adjust stock" className="adm-form" onSubmit={submit}>
      <ErrorAlert error={problem} />
      <Field
        id="adjust-delta"
        label="Change in units"
        hint="Positive for units added, negative for units taken away."
        inputMode="numeric"
        autoComplete="off"
        error={errors.delta?.message}
        {...form.register('delta', {
          setValueAs: (typed: string) => (typed.trim() === '' ? undefined : Number(typed)),
        })}
      />
      <SelectField id="adjust-reason" label="Reason" error={errors.reason?.message} {...form.register('reason')}>
        {stockReasons.map((reason) => (
          <option key={reason} value={reason}>
            {humanise(reason)}
          </option>
        ))}
      </SelectField>
      <Field id="adjust-note" label="Note (optional)" error={errors.note?.message} {...form.register('note')} />
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Apply adjustment
      </button>
    </form>
  );
}
