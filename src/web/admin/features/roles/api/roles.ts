import type { QueryClient } from '@tanstack/react-query';
import type { StaffRoleInput, StaffRoleView } from '../../../../../contract/admin/permissions.ts';
import { requestJson } from '../../../../lib/api.ts';
import { rolesKey } from '../../../lib/roles.ts';
import { staffKeys } from '../../../lib/staff-session.ts';

/** A change to a role changes what its members may do, the signed-in one's too: both are read again. */
async function reread(queryClient: QueryClient) {
  await queryClient.invalidateQueries({ queryKey: rolesKey });
  await queryClient.invalidateQueries({ queryKey: staffKeys.me });
}

export async function createRole(body: StaffRoleInput, queryClient: QueryClient): Promise<StaffRoleView> {
  const role = await requestJson<StaffRoleView>('/api/admin/roles', { method: 'POST', body: JSON.stringify(body) });
  await reread(queryClient);
  return role;
}

export async function updateRole(id: number, body: StaffRoleInput, queryClient: QueryClient): Promise<StaffRoleView> {
  const role = await requestJson<StaffRoleView>(`/api/admin/roles/${id}`, {
    method: 'PUT',
    body: JSON.stringify(body),
  });
  await reread(queryClient);
  return role;
}

export async function deleteRole(id: number, queryClient: QueryClient): Promise<void> {
  await requestJson(`/api/admin/roles/${id}`, { method: 'DELETE' });
  await reread(queryClient);
}
