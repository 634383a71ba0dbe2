import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { auditPageSchema } from '../../../../../contract/admin/audit.ts';
import { requestJson } from '../../../../lib/api.ts';

/** One page of the log, newest first; `before` is the id the previous page ended at. */
export function auditPageQueryOptions(before: number | undefined, entityType: string | undefined) {
  const search = new URLSearchParams();
  if (before) search.set('before', String(before));
  if (entityType) search.set('entityType', entityType);
  return queryOptions({
    queryKey: ['admin', 'audit', before ?? null, entityType ?? null],
    queryFn: ({ signal }) =>
      requestJson<z.infer<typeof auditPageSchema>>(`/api/admin/audit${search.size ? `?${search}` : ''}`, { signal }),
  });
}
