import { queryOptions } from '@tanstack/react-query';
import { permissionDescriptions, type StaffRoleView } from '../../../contract/admin/permissions.ts';
import { requestJson } from '../../lib/api.ts';

/** The roles: the role editor changes them, the staff page gives them out (GET /roles). */
export const rolesKey = ['admin', 'roles'] as const;

export function rolesQueryOptions() {
  return queryOptions({
    queryKey: rolesKey,
    queryFn: ({ signal }) => requestJson<StaffRoleView[]>('/api/admin/roles', { signal }),
  });
}

/** What a role lets its members do, in words: "everything" for the owner role. */
export function roleAbilities(role: Pick<StaffRoleView, 'builtIn' | 'permissions'>): string {
  if (role.builtIn) return 'everything, staff accounts, roles and settings included';
  if (role.permissions.length === 0) return 'nothing but their own account';
  return role.permissions.map((permission) => permissionDescriptions[permission].label.toLowerCase()).join(', ');
}
