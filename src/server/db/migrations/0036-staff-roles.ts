import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Permissions (issue 37 item 2, docs/back-office.md#permissions): a role is a named set of
 * permissions, kept as a comma-separated list. The built-in owner role (`is_owner`) holds every
 * permission, those added later too, and cannot be changed. The old `staff` role becomes a role
 * like any other, holding what staff could do before but staff accounts and settings. Each member
 * now refers to a role; `staff.role` stays as owner-or-not (its CHECK allows no more), kept in
 * step by the repository, and is what the last-owner rule counts.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('staff_roles')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('permissions', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_owner', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Names are unique whatever their case: "Packer" and "packer" would read as one role.
  await db.schema
    .createIndex('staff_roles_name_idx')
    .on('staff_roles')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db
    .insertInto('staff_roles')
    .values([
      { name: 'owner', permissions: '', is_owner: 1 },
      { name: 'staff', permissions: 'dispatch,refund,cancel,catalogue,pricing,customers,reports', is_owner: 0 },
    ])
    .execute();
  await db.schema
    .alterTable('staff')
    .addColumn('role_id', 'integer', (c) => c.references('staff_roles.id'))
    .execute();
  await db
    .updateTable('staff')
    .set({ role_id: sql`(select r.id from staff_roles r where r.name = staff.role)` })
    .execute();
}
