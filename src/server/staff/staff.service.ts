import type { Kysely } from 'kysely';
import { permissionDescriptions, type Permission } from '../../contract/admin/permissions.ts';
import type { NewStaff, StaffMe, StaffMember } from '../../contract/admin/staff.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from '../accounts/passwords.ts';
import { hashToken, newToken } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import {
  acceptTotpStep,
  endStaffTokens,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  insertStaffSession,
  insertStaffToken,
  listStaff,
  lockActiveOwners,
  revokeStaffSession,
  replaceRecoveryCodes,
  revokeStaffSessions,
  touchStaffSession,
  useRecoveryCode,
  updateStaff,
  useStaffToken,
  type StaffRow,
} from './staff.repository.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.ts';
import { newTotpSecret, totpQrSvg, totpStepOf, totpUrl } from './totp.ts';
import { adminAccess } from './admin-access.ts';
import { findRoleByName } from './roles.repository.ts';
import { permissionsOf } from './role-permissions.ts';

/**
 * Staff accounts (docs/back-office.md#staff-accounts): created by an owner (or the first one by
 * `npm run staff:create`) with a single-use link to choose a password, never a default one;
 * sessions that end after a short idle time; optional TOTP two-factor sign-in.
 */

/** A back-office session ends after this long unused, and after SESSION_HOURS whatever happens. */
export const IDLE_MINUTES = 30;
export const SESSION_HOURS = 12;
const SET_PASSWORD_LINK_HOURS = 72;
/** A link asked for with "Forgot password?" is a way in for whoever reads the mail: short-lived. */
const FORGOT_PASSWORD_LINK_HOURS = 1;
/**
 * At most this many "forgot password" links a member an hour: the per-client limit alone would let
 * many clients fill a member's inbox, and each link ends the one before.
 */
const FORGOT_PASSWORD_MAILS_AN_HOUR = 3;
/** Who the command line is in the audit log (`npm run staff:reset`). */
const COMMAND_LINE = { id: null, email: 'command line' } as const;

/** Who is acting, as the guard found them. */
export interface Staff {
  id: number;
  email: string;
  name: string;
  /** The name of the member's role. */
  role: string;
  /** What the role allows (the owner role: everything). */
  permissions: Permission[];
}

export type SignInResult = { outcome: 'signed-in'; token: string } | { outcome: 'failed' };

export function createStaffService(
  db: Kysely<Database>,
  options: {
    publicUrl: string;
    /** The shop's name as the owner's settings stand now (set-password e-mails, the two-factor app). */
    shopName: () => Promise<string>;
    now?: () => Date;
    /** Sends set-password links (forgot password, new staff); the command line prints them instead. */
    mailer?: Mailer;
    /** The shared counters, which limit the "forgot password" mail one member is sent. */
    counters?: Pick<RateLimitRepository, 'hit'>;
  },
) {
  const now = options.now ?? (() => new Date());
  const later = (ms: number) => new Date(now().getTime() + ms).toISOString();

  /**
   * A new link, ending the member's earlier ones, except for "forgot password": that needs no
   * sign-in, so ending them would let anyone void a new member's invitation by naming the address.
   * Whichever link is used first ends the others (useStaffToken).
   */
  async function newSetPasswordLink(
    staffId: number,
    trx: Kysely<Database> = db,
    hours = SET_PASSWORD_LINK_HOURS,
    endEarlier = true,
  ): Promise<string> {
    const token = newToken();
    if (endEarlier) await endStaffTokens(trx, staffId, now().toISOString());
    await insertStaffToken(trx, { staffId, hash: hashToken(token), expiresAt: later(hours * 3_600_000) });
    return `${options.publicUrl}/admin/set-password/${token}`;
  }

  /** The e-mail that carries a set-password link: a new member's first, or one asked for. */
  function linkMail(
    member: { email: string; name: string },
    url: string,
    purpose: 'new' | 'forgot',
    shopName: string,
  ): MailMessage {
    const hours = purpose === 'new' ? SET_PASSWORD_LINK_HOURS : FORGOT_PASSWORD_LINK_HOURS;
    return {
      to: member.email,
      subject:
        purpose === 'new'
          ? `Your ${shopName} back-office account: choose a password`
          : `Choose a new password for the ${shopName} back office`,
      template: {
        name: 'notice',
        data: {
          heading: purpose === 'new' ? 'Choose your password' : 'Choose a new password',
          greeting: `Dear ${member.name},`,
          paragraphs: [
            purpose === 'new'
              ? `An owner has made you an account in the ${shopName} back office. To start, choose a password.`
              : 'Someone, perhaps you, asked for a new password for your back-office account. Choosing one signs you out everywhere else.',
          ],
          buttons: [{ label: purpose === 'new' ? 'Choose your password' : 'Choose a new password', url }],
          after: [
            `The link works once and for ${hours} ${hours === 1 ? 'hour' : 'hours'}.${purpose === 'forgot' ? ' If you did not ask for it, you can ignore this message: your password has not changed.' : ''}`,
          ],
        },
      },
    };
  }

  /** Two-factor sign-in off for a member, their recovery codes gone and their sessions ended. */
  async function turnOffTwoFactor(trx: Kysely<Database>, staffId: number, at: string): Promise<void> {
    await updateStaff(trx, staffId, { totp_enabled: 0, totp_secret: null });
    await replaceRecoveryCodes(trx, staffId, []);
    await revokeStaffSessions(trx, staffId, at);
  }

  /** Ten new recovery codes for a member, in place of any earlier ones; answered once, stored hashed. */
  async function issueRecoveryCodes(trx: Kysely<Database>, staffId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(
      trx,
      staffId,
      codes.map((code) => recoveryCodeHash(staffId, code)),
    );
    return codes;
  }

  async function startSession(staffId: number): Promise<string> {
    const token = newToken();
    await insertStaffSession(db, {
      staffId,
      hash: hashToken(token),
      createdAt: now().toISOString(),
      idleUntil: later(IDLE_MINUTES * 60_000),
      expiresAt: later(SESSION_HOURS * 3_600_000),
    });
    return token;
  }

  /**
   * A role named in a request, as the repository stores it; an unknown name is the field's fault.
   * With `by` (not the command line), a member who is not an owner may give only a role whose
   * permissions they hold themselves, and never the owner role: the staff permission must not be
   * a way to more.
   */
  async function roleNamed(
    trx: Kysely<Database>,
    name: string,
    by: Staff | undefined,
  ): Promise<{ id: number; isOwner: boolean; name: string }> {
    const role = await findRoleByName(trx, name.trim());
    if (!role) throw new BadRequestError(`There is no role called “${name.trim()}”`, 'role');
    if (by && !isOwner(by) && (role.is_owner || !holdsAll(by, permissionsOf(role)))) {
      throw new RefusedError(
        403,
        errorCodes.forbidden,
        'You may give only a role whose permissions you hold yourself, and only an owner may make an owner',
      );
    }
    return { id: role.id, isOwner: Boolean(role.is_owner), name: role.name };
  }

  /** An owner's account (its role, its links, its two-factor) is for owners alone to change. */
  /**
   * A member's account is another's to look after (a link, a two-factor reset, a role, disabling)
   * only when that other may do all the member may: an owner's is the owners' alone, and one who
   * holds a permission the actor lacks is out of their reach, or a new link would make them that
   * member (an outside attack: a lead with staff and dispatch signed in as the bookkeeper).
   */
  function mayManage(by: Staff, member: StaffRow): void {
    if (isOwner(by)) return;
    if (member.role === 'owner')
      throw new RefusedError(403, errorCodes.forbidden, "Only an owner may change an owner's account");
    const beyond = rolePermissions(member).filter((permission) => !by.permissions.includes(permission));
    if (beyond.length > 0)
      throw new RefusedError(
        403,
        errorCodes.forbidden,
        `${member.name} may do what you may not (${beyond.map((permission) => permissionDescriptions[permission].label).join(', ')}): only an owner may change their account.`,
      );
  }

  async function memberOrThrow(id: number): Promise<StaffRow> {
    const member = await findStaffById(db, id);
    if (!member) throw new NotFoundError('No such staff member');
    return member;
  }

  return {
    /** Creates an account and answers its set-password link (the CLI prints it; the owner passes it on). */
    async create(input: NewStaff, by?: Staff): Promise<{ member: StaffMember; setPasswordUrl: string }> {
      const email = input.email.trim().toLowerCase();
      const at = now().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const role = await roleNamed(trx, input.role, by);
        const newId = await insertStaff(trx, { email, name: input.name.trim(), role, createdAt: at });
        if (newId === undefined) {
          throw new RefusedError(409, errorCodes.conflict, 'A staff account with this e-mail address exists already');
        }
        if (by) {
          await recordAudit(trx, {
            staff: by,
            action: 'staff.create',
            entityType: 'staff',
            entityId: newId,
            after: { email, name: input.name.trim(), role: role.name },
            at,
          });
        }
        return newId;
      });
      const member = await memberOrThrow(id);
      const mailer = by ? options.mailer : undefined;
      // Added by an owner: the link is e-mailed too, queued with it (docs/rules.md#mail).
      const shopName = await options.shopName();
      const setPasswordUrl = await db.transaction().execute(async (trx) => {
        const url = await newSetPasswordLink(id, trx);
        if (mailer) await mailer.sendWith(trx, linkMail(member, url, 'new', shopName));
        return url;
      });
      mailer?.wake();
      return { member: memberView(member), setPasswordUrl };
    },

    /** A new set-password link for a member (they lost theirs, or forgot their password). */
    async newLink(id: number, by: Staff): Promise<string> {
      const member = await memberOrThrow(id);
      mayManage(by, member);
      if (member.disabled_at !== null)
        throw new RefusedError(
          409,
          errorCodes.conflict,
          `${member.name}'s account is disabled: enable it first, then make a link.`,
        );
      await recordAudit(db, {
        staff: by,
        action: 'staff.new-link',
        entityType: 'staff',
        entityId: member.id,
        at: now().toISOString(),
      });
      return newSetPasswordLink(member.id);
    },

    /**
     * "Forgot password?": the same answer, in the same time, whatever the address. The caller
     * answers before the address is looked up; the link and its mail are made afterwards, and only
     * for a member who may sign in (not disabled). Never for an unknown address.
     */
    forgotPassword(emailInput: string): void {
      const { mailer, counters } = options;
      if (!mailer || !counters) throw new Error('forgotPassword needs a mailer and the shared counters');
      mailer.sendInBackground(async () => {
        const member = await findStaffByEmail(db, emailInput.trim().toLowerCase());
        if (!member || member.disabled_at !== null) return undefined;
        const { hits } = await counters.hit(`staff-forgot-mail ${member.id}`, 3_600_000, now().getTime());
        if (hits > FORGOT_PASSWORD_MAILS_AN_HOUR) return undefined;
        const shopName = await options.shopName();
        await db.transaction().execute(async (trx) => {
          const url = await newSetPasswordLink(member.id, trx, FORGOT_PASSWORD_LINK_HOURS, false);
          await mailer.sendWith(trx, linkMail(member, url, 'forgot', shopName));
          await recordAudit(trx, {
            staff: { id: member.id, email: member.email },
            action: 'staff.forgot-password',
            entityType: 'staff',
            entityId: member.id,
            at: now().toISOString(),
          });
        });
        mailer.wake();
        return undefined;
      });
    },

    /** Follows a set-password link: the password is set and every older session ends. A disabled account's links are dead. */
    async setPassword(token: string, password: string): Promise<void> {
      const problem = passwordProblem(password);
      if (problem)
        throw new BadRequestError(`That password will not do: ${problem}. Please choose another.`, 'password');
      const at = now().toISOString();
      const hash = await hashPassword(password);
      const staffId = await useStaffToken(db, hashToken(token), at);
      if (staffId === undefined) {
        throw new BadRequestError(
          'This link has been used or has expired. Please ask for a new one with “Forgot your password?” on the sign-in page, or ask an owner.',
          'token',
        );
      }
      await db.transaction().execute(async (trx) => {
        await updateStaff(trx, staffId, { password_hash: hash });
        await revokeStaffSessions(trx, staffId, at);
        const member = await findStaffById(trx, staffId);
        await recordAudit(trx, {
          staff: { id: staffId, email: member?.email ?? '' },
          action: 'staff.set-password',
          entityType: 'staff',
          entityId: staffId,
          at,
        });
      });
    },

    /**
     * Password, and the TOTP code when the member has turned it on. An unknown address, a disabled
     * account, a wrong password and a missing or wrong code all answer the same and take the same
     * time: a separate "now the code" answer would tell a guesser that the password was right.
     */
    async signIn(emailInput: string, password: string, code: string | undefined): Promise<SignInResult> {
      const member = await findStaffByEmail(db, emailInput.trim().toLowerCase());
      const passwordMatches = await verifyPassword(password, member?.password_hash ?? (await decoyHash));
      if (!member || !passwordMatches || member.password_hash === null || member.disabled_at !== null) {
        return { outcome: 'failed' };
      }
      if (member.totp_enabled && member.totp_secret) {
        if (code === undefined) return { outcome: 'failed' };
        if (/^\d{6}$/.test(code)) {
          const step = totpStepOf(member.totp_secret, code, now());
          if (step === undefined || !(await acceptTotpStep(db, member.id, step))) return { outcome: 'failed' };
        } else if (!(await useRecoveryCode(db, member.id, recoveryCodeHash(member.id, code), now().toISOString()))) {
          // A recovery code in place of the app's code, once (docs/back-office.md#staff-accounts).
          return { outcome: 'failed' };
        }
      }
      return { outcome: 'signed-in', token: await startSession(member.id) };
    },

    /** The member of a live session (its idle expiry moves on), or undefined. */
    async staffFor(token: string): Promise<Staff | undefined> {
      const member = await touchStaffSession(db, hashToken(token), now().toISOString(), later(IDLE_MINUTES * 60_000));
      return (
        member && {
          id: member.id,
          email: member.email,
          name: member.name,
          role: member.role_name ?? '',
          permissions: rolePermissions(member),
        }
      );
    },

    async signOut(token: string): Promise<void> {
      await revokeStaffSession(db, hashToken(token), now().toISOString());
    },

    async signOutEverywhere(staff: Staff): Promise<void> {
      await revokeStaffSessions(db, staff.id, now().toISOString());
    },

    /** The member, what they may do, and the table saying what each route needs. */
    async me(staff: Staff): Promise<StaffMe> {
      const member = await memberOrThrow(staff.id);
      return { ...memberView(member), permissions: rolePermissions(member), access: adminAccess };
    },

    async list(): Promise<StaffMember[]> {
      return (await listStaff(db)).map(memberView);
    },

    /** An owner changes a member's role or disables the account; the last owner stays an owner. */
    async change(id: number, change: { role?: string; disabled?: boolean }, by: Staff): Promise<StaffMember> {
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        // The owners first, locked, then the member as it is after any change that held them.
        const activeOwners = await lockActiveOwners(trx);
        const member = await findStaffById(trx, id);
        if (!member) throw new NotFoundError('No such staff member');
        mayManage(by, member);
        const newRole = change.role === undefined ? undefined : await roleNamed(trx, change.role, by);
        // Only an owner who can sign in now counts toward the shop's last one.
        const losesOwner =
          member.role === 'owner' &&
          member.disabled_at === null &&
          member.password_hash !== null &&
          ((newRole !== undefined && !newRole.isOwner) || change.disabled === true);
        if (losesOwner && activeOwners <= 1) {
          throw new RefusedError(409, errorCodes.conflict, 'The shop must keep at least one owner who can sign in');
        }
        const disabledAt =
          change.disabled === undefined ? member.disabled_at : change.disabled ? (member.disabled_at ?? at) : null;
        await updateStaff(trx, id, { ...(newRole && { role: newRole }), disabled_at: disabledAt });
        if (disabledAt !== null) await revokeStaffSessions(trx, id, at);
        // A link handed out before, or while disabled (the command line's), would let its holder
        // choose the password of the account enabled again: disabling and enabling both end them.
        if (disabledAt !== member.disabled_at) await endStaffTokens(trx, id, at);
        await recordAudit(trx, {
          staff: by,
          action: 'staff.change',
          entityType: 'staff',
          entityId: id,
          before: { role: member.role_name, disabled: member.disabled_at !== null },
          after: { role: newRole?.name ?? member.role_name, disabled: disabledAt !== null },
          at,
        });
      });
      return memberView(await memberOrThrow(id));
    },

    /** Starts two-factor set-up: a new secret, not yet required until a code from it is confirmed. */
    async setUpTotp(staff: Staff): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
      const member = await memberOrThrow(staff.id);
      if (member.totp_enabled) {
        throw new RefusedError(409, errorCodes.conflict, 'Two-factor sign-in is on already; turn it off first');
      }
      const secret = newTotpSecret();
      await updateStaff(db, staff.id, { totp_secret: secret });
      const otpauthUrl = totpUrl(secret, member.email, `${await options.shopName()} back office`);
      return { secret, otpauthUrl, qrSvg: totpQrSvg(otpauthUrl) };
    },

    /**
     * Turns two-factor sign-in on once a code from the new secret proves the app has it; answers
     * the member's ten recovery codes, shown this once.
     */
    async enableTotp(staff: Staff, code: string): Promise<{ recoveryCodes: string[] }> {
      const member = await memberOrThrow(staff.id);
      const step = member.totp_secret ? totpStepOf(member.totp_secret, code, now()) : undefined;
      if (member.totp_enabled || step === undefined || !(await acceptTotpStep(db, staff.id, step))) {
        throw new BadRequestError('That code is not right. Please try the current code from your app.', 'code');
      }
      const recoveryCodes = await db.transaction().execute(async (trx) => {
        await updateStaff(trx, staff.id, { totp_enabled: 1 });
        await recordAudit(trx, {
          staff,
          action: 'staff.totp-on',
          entityType: 'staff',
          entityId: staff.id,
          at: now().toISOString(),
        });
        return issueRecoveryCodes(trx, staff.id);
      });
      return { recoveryCodes };
    },

    /** New recovery codes, the old ones ended; the password is asked again, as for turning two-factor off. */
    async renewRecoveryCodes(staff: Staff, password: string): Promise<{ recoveryCodes: string[] }> {
      const member = await memberOrThrow(staff.id);
      if (!member.password_hash || !(await verifyPassword(password, member.password_hash))) {
        throw new BadRequestError('That password is not right.', 'password');
      }
      if (!member.totp_enabled) {
        throw new RefusedError(
          409,
          errorCodes.conflict,
          'Recovery codes come with two-factor sign-in; turn it on first',
        );
      }
      const recoveryCodes = await db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          staff,
          action: 'staff.recovery-codes',
          entityType: 'staff',
          entityId: staff.id,
          at: now().toISOString(),
        });
        return issueRecoveryCodes(trx, staff.id);
      });
      return { recoveryCodes };
    },

    /** An owner turns another member's two-factor sign-in off (their phone is lost); their sessions end. */
    async resetTwoFactor(id: number, by: Staff): Promise<StaffMember> {
      if (id === by.id) {
        throw new RefusedError(409, errorCodes.conflict, 'Turn your own two-factor sign-in off on My account');
      }
      const member = await memberOrThrow(id);
      mayManage(by, member);
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        await turnOffTwoFactor(trx, id, at);
        await recordAudit(trx, {
          staff: by,
          action: 'staff.totp-reset',
          entityType: 'staff',
          entityId: id,
          before: { totpEnabled: Boolean(member.totp_enabled) },
          after: { totpEnabled: false },
          at,
        });
      });
      return memberView(await memberOrThrow(id));
    },

    /**
     * `npm run staff:reset`: a new set-password link for a member locked out (a sole owner who lost
     * both password and phone), and optionally their two-factor sign-in off. Audited as the command line.
     */
    async resetAccess(
      emailInput: string,
      change: { twoFactorOff: boolean },
    ): Promise<{ member: StaffMember; setPasswordUrl: string }> {
      const member = await findStaffByEmail(db, emailInput.trim().toLowerCase());
      if (!member) throw new RefusedError(404, errorCodes.notFound, 'No staff account has this e-mail address');
      const at = now().toISOString();
      const setPasswordUrl = await db.transaction().execute(async (trx) => {
        if (change.twoFactorOff) await turnOffTwoFactor(trx, member.id, at);
        await recordAudit(trx, {
          staff: COMMAND_LINE,
          action: 'staff.reset-access',
          entityType: 'staff',
          entityId: member.id,
          after: { twoFactorOff: change.twoFactorOff },
          at,
        });
        return newSetPasswordLink(member.id, trx);
      });
      return { member: memberView(await memberOrThrow(member.id)), setPasswordUrl };
    },

    /** Turning it off asks for the password again: a session left open must not be enough. */
    async disableTotp(staff: Staff, password: string): Promise<void> {
      const member = await memberOrThrow(staff.id);
      if (!member.password_hash || !(await verifyPassword(password, member.password_hash))) {
        throw new BadRequestError('That password is not right.', 'password');
      }
      await db.transaction().execute(async (trx) => {
        await updateStaff(trx, staff.id, { totp_enabled: 0, totp_secret: null });
        await replaceRecoveryCodes(trx, staff.id, []);
        await recordAudit(trx, {
          staff,
          action: 'staff.totp-off',
          entityType: 'staff',
          entityId: staff.id,
          at: now().toISOString(),
        });
      });
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;

/** The built-in owner role's name: it cannot be renamed, and no other role may take it (migration 0036). */
export function isOwner(staff: Staff): boolean {
  return staff.role === 'owner';
}

/** Whether a member holds every one of these permissions. */
export function holdsAll(staff: Staff, wanted: readonly Permission[]): boolean {
  return wanted.every((permission) => staff.permissions.includes(permission));
}

/** What a member's role allows; a member without a role (none since migration 0036), nothing. */
function rolePermissions(row: StaffRow): Permission[] {
  if (row.role_permissions === null || row.role_is_owner === null) return [];
  return permissionsOf({ permissions: row.role_permissions, is_owner: row.role_is_owner });
}

function memberView(row: StaffRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role_name ?? '',
    roleId: row.role_id ?? 0,
    totpEnabled: Boolean(row.totp_enabled),
    active: row.password_hash !== null,
    disabled: row.disabled_at !== null,
    createdAt: row.created_at,
  };
}
