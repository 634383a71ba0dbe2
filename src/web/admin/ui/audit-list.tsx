import type { AuditEntryView } from '../../../contract/admin/audit.ts';
import { formatDateTime, humanise } from '../lib/format.ts';
import { DataTable, dataColumns } from './data-table.tsx';

function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const helper = dataColumns<AuditEntryView>();
const when = helper.accessor('at', { header: 'When', cell: (info) => formatDateTime(info.getValue()) });
const who = helper.accessor('staffEmail', { header: 'Who' });
const action = helper.accessor('action', { header: 'Action', cell: (info) => humanise(info.getValue()) });
const on = helper.display({
  id: 'on',
  header: 'On',
  cell: ({ row: { original: entry } }) => `${entry.entityType} ${entry.entityId}`,
});
const before = helper.accessor('before', {
  header: 'Before',
  meta: { cellClassName: 'adm-json' },
  cell: (info) => shown(info.getValue()),
});
const after = helper.accessor('after', {
  header: 'After',
  meta: { cellClassName: 'adm-json' },
  cell: (info) => shown(info.getValue()),
});
const entityColumns = helper.columns([when, who, action, on, before, after]);
const columns = helper.columns([when, who, action, before, after]);

/** Audit entries as a table: who, when, what (and on what, across entities), and the values before and after. */
export function AuditTable({
  entries,
  caption,
  showEntity = false,
}: {
  entries: AuditEntryView[];
  caption: string;
  showEntity?: boolean;
}) {
  return (
    <DataTable
      caption={caption}
      columns={showEntity ? entityColumns : columns}
      rows={entries}
      rowKey={(entry) => String(entry.id)}
      empty="No staff actions recorded."
    />
  );
}
