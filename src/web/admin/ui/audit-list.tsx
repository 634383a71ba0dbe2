import type { AuditEntryView } from '../../../contract/admin/audit.ts';
import { formatDateTime, formatPence, humanise } from '../lib/format.ts';
import { DataTable, dataColumns } from './data-table.tsx';

/** A camelCase field name as words: deliveryAddress → "Delivery address". */
function fieldName(key: string): string {
  return humanise(key.replaceAll(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
}

/**
 * Fields that hold money, in integer pence as every payload does: shown in pounds. A voucher's
 * `amount` is money only when it is a fixed amount off (see `shown`).
 */
const moneyFields = new Set([
  'amount',
  'refundedTotal',
  'total',
  'rate',
  'minItemsTotal',
  'maxItemsTotal',
  'minSpend',
  'price',
  'priceWithoutDiscount',
  'goods',
  'deduction',
  'refundAmount',
]);
/** Fields whose value is a stored code ("paid", "as_new"), read as words. */
const codeFields = new Set(['status', 'fulfilment', 'payment', 'kind', 'condition']);

/** One field's value as staff read it: pounds, yes or no, a code in words, else as typed. */
function fieldValue(key: string, value: unknown, percent = false): string {
  if (typeof value === 'number' && Number.isInteger(value) && moneyFields.has(key))
    return key === 'amount' && percent ? `${value}%` : formatPence(value);
  if (key === 'priceReduction' && typeof value === 'number') return `${value}% off`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' && (codeFields.has(key) || /^[a-z]+(?:_[a-z]+)+$/.test(value))) return humanise(value);
  return inline(value);
}

/** A value inside a field, on one line: an address's parts, a list's items, each comma-separated. */
function inline(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(inline).join('; ');
  if (typeof value === 'object')
    return Object.entries(value)
      .filter(([, part]) => part !== '' && part !== null && part !== undefined)
      .map(([key, part]) =>
        typeof part === 'object'
          ? inline(part)
          : isLabelled(value)
            ? `${fieldName(key).toLowerCase()} ${fieldValue(key, part)}`
            : fieldValue(key, part),
      )
      .join(', ');
  return String(value);
}

/** An object of ids and counts reads with its names ("line id 7, quantity 1"); an address without. */
function isLabelled(value: object): boolean {
  return Object.values(value).every((part) => typeof part === 'number');
}

/** A value before or after, as an owner reads it: each field named on its own line. */
function shown(value: unknown) {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || Array.isArray(value)) return inline(value);
  const percent = (value as { kind?: unknown }).kind === 'percent';
  return Object.entries(value).map(([key, part]) => (
    <div key={key}>{`${fieldName(key)}: ${fieldValue(key, part, percent)}`}</div>
  ));
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
  meta: { cellClassName: 'adm-values' },
  cell: (info) => shown(info.getValue()),
});
const after = helper.accessor('after', {
  header: 'After',
  meta: { cellClassName: 'adm-values' },
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
