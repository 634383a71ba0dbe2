import { permissions as allPermissions, type Permission } from '../../contract/admin/permissions.ts';
import type { StaffRoleRow } from './roles.repository.ts';

/** What a role allows: the owner role everything, those added since too; the others what they list. */
export function permissionsOf(role: Pick<StaffRoleRow, 'permissions' | 'is_owner'>): Permission[] {
  if (role.is_owner) return [...allPermissions];
  const listed = new Set(role.permissions.split(','));
  // In the contract's order, and only names it knows.
  return allPermissions.filter((permission) => listed.has(permission));
}
