import { sql, type Kysely, type Selectable } from 'kysely';
import { isUniqueViolation } from '../db/database.ts';
import type { Database, StaffRoleTable } from '../db/schema.ts';

/** Roles' SQL (migration 0036): named sets of permissions, and how many members hold each. */

export type StaffRoleRow = Selectable<StaffRoleTable>;

export function findRoleById(db: Kysely<Database>, id: number) {
  return db.selectFrom('staff_roles').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A role by its name, whatever its case. */
export function findRoleByName(db: Kysely<Database>, name: string) {
  return db
    .selectFrom('staff_roles')
    .selectAll()
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

export function listRoles(db: Kysely<Database>) {
  return db
    .selectFrom('staff_roles')
    .selectAll('staff_roles')
    .select((eb) =>
      eb
        .selectFrom('staff')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('staff.role_id', '=', 'staff_roles.id')
        .as('members'),
    )
    .orderBy('is_owner', 'desc')
    .orderBy('name')
    .execute();
}

export async function countMembersOf(db: Kysely<Database>, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('staff')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The new role's id, or undefined when its name is taken. */
export async function insertRole(
  db: Kysely<Database>,
  role: { name: string; permissions: string },
): Promise<number | undefined> {
  try {
    const row = await db
      .insertInto('staff_roles')
      .values({ name: role.name, permissions: role.permissions, is_owner: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** False when the new name is another role's. */
export async function updateRole(
  db: Kysely<Database>,
  id: number,
  role: { name: string; permissions: string },
): Promise<boolean> {
  try {
    await db.updateTable('staff_roles').set(role).where('id', '=', id).where('is_owner', '=', 0).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function deleteRole(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('staff_roles').where('id', '=', id).where('is_owner', '=', 0).execute();
}
