import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A way back in (docs/back-office.md#staff-accounts): each member with two-factor sign-in holds ten
 * single-use recovery codes, stored as their SHA-256 only; a code is spent by setting `used_at`.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('id', autoId, (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('staff_recovery_codes_staff_idx')
    .on('staff_recovery_codes')
    .columns(['staff_id', 'code_hash'])
    .execute();
}
