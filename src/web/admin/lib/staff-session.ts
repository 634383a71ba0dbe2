import { queryOptions } from '@tanstack/react-query';
import type { StaffMe } from '../../../contract/admin/staff.ts';
import { requestJson } from '../../lib/api.ts';

/**
 * The signed-in staff member, their permissions and the server's table of what each route needs;
 * the guard, the nav and the account page read it. A 401 means signed out.
 */
export const staffKeys = { me: ['admin', 'me'] as const };

export function isStaffMeKey(key: readonly unknown[]): boolean {
  return key.length === 2 && key[0] === staffKeys.me[0] && key[1] === staffKeys.me[1];
}

export function staffMeQueryOptions() {
  return queryOptions({
    queryKey: staffKeys.me,
    queryFn: ({ signal }) => requestJson<StaffMe>('/api/admin/me', { signal }),
    retry: false,
    staleTime: 5 * 60_000,
  });
}
