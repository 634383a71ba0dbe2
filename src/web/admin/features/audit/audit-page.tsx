import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { auditPageQuerySchema } from '../../../../contract/admin/audit.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { humanise } from '../../lib/format.ts';
import { AuditTable } from '../../ui/audit-list.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { SelectField } from '../../ui/field.tsx';
import { auditPageQueryOptions } from './api/audit.ts';

const entityTypes = auditPageQuerySchema.shape.entityType.unwrap().options;

/** Every staff action, newest first, in pages that continue `before` the last one shown. */
export default function AuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const before = Number(searchParams.get('before')) || undefined;
  const entityType = entityTypes.find((type) => type === searchParams.get('entityType'));
  const log = useQuery(auditPageQueryOptions(before, entityType));

  return (
    <AdminPage title="Audit log">
      <div className="adm-filters">
        <SelectField
          id="audit-entity"
          label="Show actions on"
          value={entityType ?? ''}
          onChange={(event) => setSearchParams(event.target.value ? { entityType: event.target.value } : {})}
        >
          <option value="">Everything</option>
          {entityTypes.map((type) => (
            <option key={type} value={type}>
              {humanise(type)}s
            </option>
          ))}
        </SelectField>
      </div>
      <ErrorAlert error={log.error} />
      {log.data && (
        <>
          <AuditTable entries={log.data.entries} caption="Staff actions, newest first" showEntity />
          <nav className="adm-pager" aria-label="Audit log pages">
            {before && <Link to={entityType ? `?entityType=${entityType}` : '.'}>Newest</Link>}
            {log.data.nextBefore && (
              <Link
                to={`?${new URLSearchParams({ ...(entityType ? { entityType } : {}), before: String(log.data.nextBefore) })}`}
              >
                Older entries
              </Link>
            )}
          </nav>
        </>
      )}
    </AdminPage>
  );
}
