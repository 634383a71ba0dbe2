import type { Kysely } from 'kysely';
import {
  permissions as allPermissions,
  type Permission,
  type StaffRoleInput,
  type StaffRoleView,
} from '../../contract/admin/permissions.ts';
import { permissionsOf } from './role-permissions.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import {
  countMembersOf,
  deleteRole,
  findRoleById,
  insertRole,
  listRoles,
  updateRole,
  type StaffRoleRow,
} from './roles.repository.ts';
import { holdsAll, isOwner, type Staff } from './staff.service.ts';

/**
 * Roles (docs/back-office.md#permissions): the owner role holds every permission and cannot be
 * changed or removed; the others are the owner's to define. A role someone holds is not deleted.
 */

function stored(permissions: readonly Permission[]): string {
  return allPermissions.filter((permission) => permissions.includes(permission)).join(',');
}

function view(row: StaffRoleRow & { members?: number | string | null }): StaffRoleView {
  return {
    id: row.id,
    name: row.name,
    permissions: permissionsOf(row),
    builtIn: Boolean(row.is_owner),
    members: Number(row.members ?? 0),
  };
}

export function createRolesService(db: Kysely<Database>, options: { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  const nameTaken = (name: string) =>
    new RefusedError(409, errorCodes.conflict, `There is a role called “${name}” already`, 'name');

  /**
   * A member who is not an owner may define and change only roles within their own permissions,
   * so the staff permission is never a way to more.
   */
  function mayGrant(by: Staff, permissions: readonly Permission[]): void {
    if (!isOwner(by) && !holdsAll(by, permissions)) {
      throw new RefusedError(
        403,
        errorCodes.forbidden,
        'You may define a role only with permissions you hold yourself; an owner can give it more',
      );
    }
  }

  async function editable(trx: Kysely<Database>, id: number, by: Staff): Promise<StaffRoleRow> {
    const role = await findRoleById(trx, id);
    if (!role) throw new NotFoundError('No such role');
    if (role.is_owner) {
      throw new RefusedError(409, errorCodes.conflict, 'The owner role holds every permission and cannot be changed');
    }
    mayGrant(by, permissionsOf(role));
    return role;
  }

  return {
    async list(): Promise<StaffRoleView[]> {
      return (await listRoles(db)).map(view);
    },

    async create(input: StaffRoleInput, by: Staff): Promise<StaffRoleView> {
      const name = input.name.trim();
      mayGrant(by, input.permissions);
      const permissions = stored(input.permissions);
      const id = await db.transaction().execute(async (trx) => {
        const newId = await insertRole(trx, { name, permissions });
        if (newId === undefined) throw nameTaken(name);
        await recordAudit(trx, {
          staff: by,
          action: 'role.create',
          entityType: 'role',
          entityId: newId,
          after: { name, permissions },
          at: now().toISOString(),
        });
        return newId;
      });
      return view((await findRoleById(db, id))!);
    },

    async update(id: number, input: StaffRoleInput, by: Staff): Promise<StaffRoleView> {
      const name = input.name.trim();
      mayGrant(by, input.permissions);
      const permissions = stored(input.permissions);
      await db.transaction().execute(async (trx) => {
        const before = await editable(trx, id, by);
        if (!(await updateRole(trx, id, { name, permissions }))) throw nameTaken(name);
        await recordAudit(trx, {
          staff: by,
          action: 'role.update',
          entityType: 'role',
          entityId: id,
          before: { name: before.name, permissions: before.permissions },
          after: { name, permissions },
          at: now().toISOString(),
        });
      });
      const members = await countMembersOf(db, id);
      return view({ ...(await findRoleById(db, id))!, members });
    },

    /** Refused while anyone holds the role, naming it: they need another role first. */
    async remove(id: number, by: Staff): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const role = await editable(trx, id, by);
        const members = await countMembersOf(trx, id);
        if (members > 0) {
          throw new RefusedError(
            409,
            errorCodes.conflict,
            `The role “${role.name}” is held by ${members} ${members === 1 ? 'member' : 'members'} of staff; give them another role first`,
          );
        }
        await deleteRole(trx, id);
        await recordAudit(trx, {
          staff: by,
          action: 'role.delete',
          entityType: 'role',
          entityId: id,
          before: { name: role.name, permissions: role.permissions },
          at: now().toISOString(),
        });
      });
    },
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
