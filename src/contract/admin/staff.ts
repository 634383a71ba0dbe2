import { z } from 'zod';
import { emailField } from '../fields.ts';

/**
 * Back-office accounts (docs/back-office.md). Staff are not customers: their own accounts, roles
 * and sessions. `owner` may do everything, `staff` everything but staff accounts and settings.
 */
export const staffRoles = ['owner', 'staff'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** What a member of each role may do, in the words the back office asks before a role change. */
export const staffRoleAbilities: Record<StaffRole, string> = {
  owner: 'Owners can do everything: orders, refunds, the catalogue, prices, customers, and staff accounts too.',
  staff:
    'Staff can work orders, refunds, customers, the catalogue, stock, vouchers and delivery; not staff accounts, the products CSV import or the low-stock threshold.',
};

const password = z.string().min(1, 'Please enter your password').max(200);
/** A six-digit code from an authenticator app. */
const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Please enter the six-digit code from your authenticator app');

/**
 * One form for everyone: the code is asked for up front (left empty without two-factor sign-in),
 * since a second step shown only after a right password would tell a guesser it was right.
 */
export const staffSignInSchema = z.object({
  email: emailField('Please enter your e-mail address'),
  password,
  code: z.union([z.literal('').transform(() => undefined), totpCode]).optional(),
});
export type StaffSignIn = z.input<typeof staffSignInSchema>;

export const staffSetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200),
    password: z.string().max(200),
    confirm: z.string().max(200),
  })
  .refine((body) => body.password === body.confirm, { message: 'The passwords do not match', path: ['confirm'] });
export type StaffSetPassword = z.input<typeof staffSetPasswordSchema>;

export const staffMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(staffRoles),
  totpEnabled: z.boolean(),
  /** False until the person has followed their set-password link. */
  active: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffListSchema = z.array(staffMemberSchema);

export const newStaffSchema = z.object({
  email: emailField('Please enter an e-mail address'),
  name: z.string().trim().min(1, 'Please enter a name').max(100),
  role: z.enum(staffRoles, { error: 'Please choose a role' }),
});
export type NewStaff = z.input<typeof newStaffSchema>;
/** The new member's single-use link to choose a password: shown once, to pass on by hand or e-mail. */
export const newStaffAnswerSchema = z.object({ member: staffMemberSchema, setPasswordUrl: z.string() });

export const staffChangeSchema = z
  .object({ role: z.enum(staffRoles).optional(), disabled: z.boolean().optional() })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, {
    message: 'Name a role or whether the account is disabled',
  });

export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const totpCodeSchema = z.object({ code: totpCode });
export const totpDisableSchema = z.object({ password });

export const staffIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
