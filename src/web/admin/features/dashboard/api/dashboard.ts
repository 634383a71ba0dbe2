import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '../../../../../contract/admin/dashboard.ts';
import { requestJson } from '../../../../lib/api.ts';

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'dashboard'],
    queryFn: ({ signal }) => requestJson<Dashboard>('/api/admin/dashboard', { signal }),
    // Opened to see what happened since: always asked again, and every minute while open.
    staleTime: 0,
    refetchInterval: 60_000,
  });
}
