import type { Kysely, Selectable } from 'kysely';
import type { Database, StaffTable } from '../db/schema.ts';
import { dialectOfHandle, isUniqueViolation } from '../db/database.ts';

/** Staff accounts' SQL: accounts, set-password links and sessions. */

/** A member with their role's name and permissions (migration 0036). */
export type StaffRow = Selectable<StaffTable> & {
  role_name: string | null;
  role_permissions: string | null;
  role_is_owner: number | null;
};

function staffWithRole(db: Kysely<Database>) {
  return db
    .selectFrom('staff')
    .leftJoin('staff_roles', 'staff_roles.id', 'staff.role_id')
    .selectAll('staff')
    .select([
      'staff_roles.name as role_name',
      'staff_roles.permissions as role_permissions',
      'staff_roles.is_owner as role_is_owner',
    ]);
}

export function findStaffByEmail(db: Kysely<Database>, email: string): Promise<StaffRow | undefined> {
  return staffWithRole(db).where('staff.email', '=', email).executeTakeFirst();
}

export function findStaffById(db: Kysely<Database>, id: number): Promise<StaffRow | undefined> {
  return staffWithRole(db).where('staff.id', '=', id).executeTakeFirst();
}

export function listStaff(db: Kysely<Database>): Promise<StaffRow[]> {
  return staffWithRole(db).orderBy('staff.id').execute();
}

/** The new member's id, or undefined when the address has an account already. */
export async function insertStaff(
  db: Kysely<Database>,
  member: { email: string; name: string; role: { id: number; isOwner: boolean }; createdAt: string },
): Promise<number | undefined> {
  try {
    const row = await db
      .insertInto('staff')
      .values({
        email: member.email,
        name: member.name,
        // `role` is owner-or-not, kept in step with the role itself (migration 0036).
        role: member.role.isOwner ? 'owner' : 'staff',
        role_id: member.role.id,
        created_at: member.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function updateStaff(
  db: Kysely<Database>,
  id: number,
  change: Partial<Pick<StaffRow, 'disabled_at' | 'password_hash' | 'totp_secret' | 'totp_enabled'>> & {
    role?: { id: number; isOwner: boolean };
  },
): Promise<void> {
  const { role, ...rest } = change;
  await db
    .updateTable('staff')
    .set({ ...rest, ...(role && { role: role.isOwner ? 'owner' : 'staff', role_id: role.id }) })
    .where('id', '=', id)
    .execute();
}

/**
 * Owners able to sign in now (not disabled, a password chosen): the last one may not be demoted
 * or disabled. An owner still holding only a set-password link does not count.
 *
 * On PostgreSQL their rows stay locked until the transaction ends: two owners demoting each other
 * at once would otherwise each count two under READ COMMITTED and leave none. The second waits,
 * and its count then leaves out the row the first changed. SQLite's writers already take turns
 * (BEGIN IMMEDIATE, db/database.ts), and it has no FOR UPDATE.
 */
export async function lockActiveOwners(db: Kysely<Database>): Promise<number> {
  let query = db
    .selectFrom('staff')
    .select('id')
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .where('password_hash', 'is not', null)
    // One order for every transaction, so two of them never hold each other's rows.
    .orderBy('id');
  if (dialectOfHandle(db) === 'postgres') query = query.forUpdate();
  return (await query.execute()).length;
}

/**
 * Accepts a TOTP time step once: true when it is later than the last one accepted for the member,
 * in one conditional update, so a code cannot be replayed, not even by two requests at once.
 */
export async function acceptTotpStep(db: Kysely<Database>, id: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('staff')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertStaffToken(
  db: Kysely<Database>,
  token: { staffId: number; hash: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('staff_tokens')
    .values({ staff_id: token.staffId, token_hash: token.hash, expires_at: token.expiresAt, used_at: null })
    .execute();
}

/**
 * Uses a set-password link once: its member when it was unused and unexpired. Every other live
 * link of the member ends with it; of two uses at once, one gets through.
 */
export async function useStaffToken(db: Kysely<Database>, hash: string, now: string): Promise<number | undefined> {
  const token = await db
    .updateTable('staff_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('staff_id')
    .executeTakeFirst();
  if (!token) return undefined;
  await db
    .updateTable('staff_tokens')
    .set({ used_at: now })
    .where('staff_id', '=', token.staff_id)
    .where('used_at', 'is', null)
    .execute();
  return token.staff_id;
}

/** Ends a member's unused set-password links (a new one is being made). */
export async function endStaffTokens(db: Kysely<Database>, staffId: number, now: string): Promise<void> {
  await db
    .updateTable('staff_tokens')
    .set({ used_at: now })
    .where('staff_id', '=', staffId)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertStaffSession(
  db: Kysely<Database>,
  session: { staffId: number; hash: string; createdAt: string; idleUntil: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('staff_sessions')
    .values({
      staff_id: session.staffId,
      token_hash: session.hash,
      created_at: session.createdAt,
      idle_until: session.idleUntil,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .execute();
}

/**
 * The member of a live session, moving its idle expiry on in the same statement. A session ends
 * when it is revoked, idle too long, past its absolute end, or its member is disabled.
 */
export async function touchStaffSession(
  db: Kysely<Database>,
  hash: string,
  now: string,
  idleUntil: string,
): Promise<StaffRow | undefined> {
  const session = await db
    .updateTable('staff_sessions')
    .set({ idle_until: idleUntil })
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where('idle_until', '>', now)
    .where('expires_at', '>', now)
    .returning('staff_id')
    .executeTakeFirst();
  if (!session) return undefined;
  const member = await findStaffById(db, session.staff_id);
  return member && member.disabled_at === null ? member : undefined;
}

export async function revokeStaffSession(db: Kysely<Database>, hash: string, now: string): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of a member (sign out everywhere, a new password, a disabled account). */
export async function revokeStaffSessions(db: Kysely<Database>, staffId: number, now: string): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ revoked_at: now })
    .where('staff_id', '=', staffId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A member's recovery codes, in place of any earlier ones (their hashes only). */
export async function replaceRecoveryCodes(db: Kysely<Database>, staffId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
  if (hashes.length > 0) {
    await db
      .insertInto('staff_recovery_codes')
      .values(hashes.map((hash) => ({ staff_id: staffId, code_hash: hash, used_at: null })))
      .execute();
  }
}

/**
 * Spends a recovery code: true when it was the member's and unused, in one conditional update, so
 * two sign-ins at once cannot both use it.
 */
export async function useRecoveryCode(db: Kysely<Database>, staffId: number, hash: string, now: string) {
  const result = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: now })
    .where('staff_id', '=', staffId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
