import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmptyDatabase, type TestDatabase } from '../../../test/helpers/test-db.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * Migration 0036 on a shop that had staff before it: each member keeps what they could do, the
 * owners in the owner role and the staff in the `staff` role, now a role like any other.
 */
describe('migration 0036: roles', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('gives every member the role of the same name', async () => {
    database = await createEmptyDatabase();
    const db = database.connect();
    const k = db.kysely as Kysely<any>;
    // Everything up to 0035: 0036 (and what came after it) is marked as done, so it waits.
    await k.schema
      .createTable('schema_migrations')
      .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('applied_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    await k
      .insertInto('schema_migrations')
      .values(
        ['0036-staff-roles', '0037-shipping-labels', '0038-label-references'].map((name) => ({
          name,
          applied_at: 'x',
        })),
      )
      .execute();
    expect(await migrateToLatest(db)).toHaveLength(35);
    const at = '2026-11-01T09:00:00.000Z';
    await k
      .insertInto('staff')
      .values([
        { email: 'owner@shop.example', name: 'Owner', role: 'owner', created_at: at },
        { email: 'staff@shop.example', name: 'Staff', role: 'staff', created_at: at },
      ])
      .execute();
    await k.deleteFrom('schema_migrations').where('name', '=', '0036-staff-roles').execute();

    expect(await migrateToLatest(db)).toEqual(['0036-staff-roles']);
    const members = await sql<{ email: string; role: string; name: string; permissions: string; is_owner: number }>`
      select s.email, s.role, r.name, r.permissions, r.is_owner
      from staff s join staff_roles r on r.id = s.role_id order by s.email`.execute(k);
    expect(members.rows.map((row) => ({ ...row, is_owner: Number(row.is_owner) }))).toEqual([
      { email: 'owner@shop.example', role: 'owner', name: 'owner', permissions: '', is_owner: 1 },
      {
        email: 'staff@shop.example',
        role: 'staff',
        name: 'staff',
        permissions: 'dispatch,refund,cancel,catalogue,pricing,customers,reports',
        is_owner: 0,
      },
    ]);
    // Names are unique in any case.
    await expect(k.insertInto('staff_roles').values({ name: 'Staff', permissions: '' }).execute()).rejects.toThrow();
  });
});
