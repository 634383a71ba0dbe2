import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A table's box: on a wide screen it scrolls sideways when the table is wider than it, a region
 * named as the table is and reachable by keyboard; on a phone (admin.css) each row stands as a card
 * of "header: value" lines, so nothing is hidden past the screen's edge. Each body cell is given
 * its column's header as `data-label` for that, here, so every table in the back office has it
 * without writing it twice.
 */
export function TableBox(props: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  // After each drawing: rows come and go with pages, filters and what staff do.
  useLayoutEffect(() => {
    const table = box.current?.querySelector('table');
    if (table) labelCellsByColumn(table);
  });
  return (
    <div ref={box} className="adm-table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}

/** Each body cell's column header, by its place in the row (cells spanning columns counted). */
function labelCellsByColumn(table: HTMLTableElement): void {
  const cellsOf = (row: Element) => Array.from(row.querySelectorAll<HTMLTableCellElement>(':scope > th, :scope > td'));
  const headerRow = table.querySelector(':scope > thead > tr');
  if (!headerRow) return;
  const headers: string[] = [];
  for (const cell of cellsOf(headerRow)) {
    const text = cell.textContent?.replace(/[▼▲↕]/g, '').trim() ?? '';
    for (let span = 0; span < Math.max(1, cell.colSpan || 1); span++) headers.push(text);
  }
  for (const row of Array.from(table.querySelectorAll(':scope > tbody > tr'))) {
    let column = 0;
    for (const cell of cellsOf(row)) {
      const header = headers[column] ?? '';
      if (cell.dataset.label !== header) cell.dataset.label = header;
      column += Math.max(1, cell.colSpan || 1);
    }
  }
}
