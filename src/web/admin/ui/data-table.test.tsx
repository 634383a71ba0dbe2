// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, dataColumns } from './data-table.tsx';

interface Sale {
  id: number;
  placed: string;
  total: number;
}

const helper = dataColumns<Sale>();
const columns = helper.columns([
  helper.accessor('id', { header: 'Order' }),
  helper.accessor('placed', { header: 'Placed' }),
  helper.accessor('total', { header: 'Total', meta: { numeric: true } }),
]);
const sales: Sale[] = [
  { id: 7, placed: '1 May', total: 1200 },
  { id: 8, placed: '2 May', total: 300 },
];
const orders = { placed: ['newest', 'oldest'], total: ['total-high', 'total-low'] } as const;
type Sort = 'newest' | 'oldest' | 'total-high' | 'total-low';

afterEach(cleanup);

/** What a column's header tells a screen reader of the order (aria-sort), or null. */
const sortOf = (header: string) =>
  screen.getByRole('columnheader', { name: new RegExp(header) }).getAttribute('aria-sort');

describe('a back-office list table', () => {
  it('keeps its caption for screen readers alone, unless the page shows it to tell two tables apart', () => {
    const { rerender } = render(<DataTable caption="Sales" columns={columns} rows={sales} />);
    expect(screen.getByText('Sales').className).toBe('visually-hidden');
    rerender(<DataTable caption="Sales" captionShown columns={columns} rows={sales} />);
    expect(screen.getByText('Sales').className).toBe('');
  });

  it('is named by its caption, with a header for each column and a row for each entry', () => {
    render(<DataTable caption="Sales" columns={columns} rows={sales} />);
    const table = screen.getByRole('table', { name: 'Sales' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Order', 'Placed', 'Total']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((td) => td.textContent),
      ),
    ).toEqual([
      ['7', '1 May', '1200'],
      ['8', '2 May', '300'],
    ]);
  });

  it('says which column it is sorted by, and a header asks the server for the other order', async () => {
    const onSort = vi.fn();
    const sortedBy = (current: Sort) => (
      <DataTable<Sale, Sort> caption="Sales" columns={columns} rows={sales} sorting={{ orders, current, onSort }} />
    );
    const { rerender } = render(sortedBy('newest'));
    expect(sortOf('Placed')).toBe('descending');
    expect(sortOf('Total')).toBeNull();
    expect(screen.queryByRole('button', { name: /Order/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /Placed/ }));
    expect(onSort).toHaveBeenLastCalledWith('oldest');
    await userEvent.click(screen.getByRole('button', { name: /Total/ }));
    expect(onSort).toHaveBeenLastCalledWith('total-high');

    rerender(sortedBy('total-low'));
    expect(sortOf('Total')).toBe('ascending');
    await userEvent.click(screen.getByRole('button', { name: /Total/ }));
    expect(onSort).toHaveBeenLastCalledWith('total-high');
  });

  it('says so in place of an empty table, and pages on', async () => {
    const onPage = vi.fn();
    const list = { page: 1, pageSize: 2, total: 0 };
    const { rerender } = render(
      <DataTable
        caption="Sales"
        columns={columns}
        rows={[]}
        empty="No sales match."
        pager={{ label: 'Sale pages', list, onPage }}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No sales match.').tagName).toBe('P');
    expect(screen.getByRole('navigation', { name: 'Sale pages' }).textContent).toContain('0–0 of 0 (page 1 of 1)');

    rerender(
      <DataTable
        caption="Sales"
        columns={columns}
        rows={sales}
        empty="No sales match."
        pager={{ label: 'Sale pages', list: { ...list, total: 5 }, onPage }}
      />,
    );
    screen.getByRole('table', { name: 'Sales' });
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it('keeps an input in a cell, and its focus, while the page rebuilds its columns at each keystroke', async () => {
    function Notes() {
      const [notes, setNotes] = useState<Record<number, string>>({});
      const withNotes = helper.columns([
        ...columns,
        helper.display({
          id: 'note',
          header: 'Note',
          cell: ({ row: { original: sale } }) => (
            <input
              aria-label={`Note on ${sale.id}`}
              value={notes[sale.id] ?? ''}
              onChange={(event) => setNotes({ ...notes, [sale.id]: event.target.value })}
            />
          ),
        }),
      ]);
      return <DataTable caption="Sales" columns={withNotes} rows={sales} />;
    }
    render(<Notes />);
    await userEvent.click(screen.getByLabelText('Note on 8'));
    await userEvent.keyboard('Paid by card');
    expect((screen.getByLabelText('Note on 8') as HTMLInputElement).value).toBe('Paid by card');
    expect(document.activeElement).toBe(screen.getByLabelText('Note on 8'));
  });
});
