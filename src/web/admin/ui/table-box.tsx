import type { ReactNode } from 'react';

/**
 * A table's box, which scrolls sideways when the table is wider than the screen (a phone): a
 * region named as the table is, reachable by keyboard, so it can be scrolled without a mouse.
 */
export function TableBox(props: { label: string; children: ReactNode }) {
  return (
    <div className="adm-table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}
