import type { AuditEntryView } from '../../../contract/admin/audit.ts';
import { formatDateTime, humanise } from '../lib/format.ts';

function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Audit entries as a table: who, when, what, and the values before and after. */
export function AuditTable({
  entries,
  caption,
  showEntity = false,
}: {
  entries: AuditEntryView[];
  caption: string;
  showEntity?: boolean;
}) {
  if (entries.length === 0) return <p>No staff actions recorded.</p>;
  return (
    <div className="adm-table-wrap">
      <table className="adm-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            {showEntity && <th scope="col">On</th>}
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDateTime(entry.at)}</td>
              <td>{entry.staffEmail}</td>
              <td>{humanise(entry.action)}</td>
              {showEntity && (
                <td>
                  {entry.entityType} {entry.entityId}
                </td>
              )}
              <td className="adm-json">{shown(entry.before)}</td>
              <td className="adm-json">{shown(entry.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
