import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { NewStaff, newStaffAnswerSchema, StaffMember } from '../../../../../contract/admin/staff.ts';
import { requestJson } from '../../../../lib/api.ts';
import { rolesKey } from '../../../lib/roles.ts';

const staffListKey = ['admin', 'staff'] as const;

export function staffListQueryOptions() {
  return queryOptions({
    queryKey: staffListKey,
    queryFn: ({ signal }) => requestJson<StaffMember[]>('/api/admin/staff', { signal }),
  });
}

/** The new member, and their single-use set-password link, shown once. */
export async function addStaff(
  body: NewStaff,
  queryClient: QueryClient,
): Promise<z.infer<typeof newStaffAnswerSchema>> {
  const answer = await requestJson<z.infer<typeof newStaffAnswerSchema>>('/api/admin/staff', {
    method: 'POST',
    body: JSON.stringify(body),
  });
  await queryClient.invalidateQueries({ queryKey: staffListKey });
  return answer;
}

export async function changeStaff(
  id: number,
  /** `role`: the role's name. */
  change: { role?: string; disabled?: boolean },
  queryClient: QueryClient,
): Promise<void> {
  await requestJson(`/api/admin/staff/${id}`, { method: 'PATCH', body: JSON.stringify(change) });
  await queryClient.invalidateQueries({ queryKey: staffListKey });
  // The roles' member counts change with it.
  await queryClient.invalidateQueries({ queryKey: rolesKey });
}

/** Turns a member's two-factor sign-in off (their phone is lost); their sessions end. */
export async function resetTwoFactor(id: number, queryClient: QueryClient): Promise<void> {
  await requestJson(`/api/admin/staff/${id}/reset-two-factor`, { method: 'POST', body: '{}' });
  await queryClient.invalidateQueries({ queryKey: staffListKey });
}

export function newSetPasswordLink(id: number): Promise<{ setPasswordUrl: string }> {
  return requestJson(`/api/admin/staff/${id}/set-password-link`, { method: 'POST', body: '{}' });
}
