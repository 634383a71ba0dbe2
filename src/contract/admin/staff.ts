import { z } from 'zod';
import { emailField } from '../fields.ts';
import { accessTableSchema, permissionSchema } from './permissions.ts';

/**
 * Back-office accounts (docs/back-office.md). Staff are not customers: their own accounts, roles
 * and sessions. A member holds one role, a named set of permissions (permissions.ts): the built-in
 * `owner`, holding them all, or one the owner defined.
 */
const roleName = z.string().trim().min(1, 'Please choose a role').max(60);

const password = z.string().min(1, 'Please enter your password').max(200);
/** A six-digit code from an authenticator app. */
const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Please enter the six-digit code from your authenticator app');

/** The app's six-digit code, or one of the member's recovery codes (`k7qm-2xfp-9hbt`, any case, dashes optional). */
const signInCode = z
  .string()
  .trim()
  .regex(
    /^(\d{6}|[A-Za-z0-9]{4}[\s-]?[A-Za-z0-9]{4}[\s-]?[A-Za-z0-9]{4})$/,
    'Please enter the six-digit code from your authenticator app, or a recovery code',
  );

/**
 * One form for everyone: the code is asked for up front (left empty without two-factor sign-in),
 * since a second step shown only after a right password would tell a guesser it was right.
 */
export const staffSignInSchema = z.object({
  email: emailField('Please enter your e-mail address'),
  password,
  code: z.union([z.literal('').transform(() => undefined), signInCode]).optional(),
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
  /** The role's name. */
  role: z.string(),
  roleId: z.number().int(),
  totpEnabled: z.boolean(),
  /** False until the person has followed their set-password link. */
  active: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffListSchema = z.array(staffMemberSchema);
/**
 * The signed-in member, what their role allows, and the server's table of which permission each
 * route needs (src/server/staff/admin-access.ts): the back office shows only what it allows.
 */
export const staffMeSchema = staffMemberSchema.extend({
  permissions: z.array(permissionSchema),
  access: accessTableSchema,
});
export type StaffMe = z.infer<typeof staffMeSchema>;

export const newStaffSchema = z.object({
  email: emailField('Please enter an e-mail address'),
  name: z.string().trim().min(1, 'Please enter a name').max(100),
  /** The role's name. */
  role: roleName,
});
export type NewStaff = z.input<typeof newStaffSchema>;
/** The new member's single-use link to choose a password: shown once, to pass on by hand or e-mail. */
export const newStaffAnswerSchema = z.object({ member: staffMemberSchema, setPasswordUrl: z.string() });

export const staffChangeSchema = z
  .object({ role: roleName.optional(), disabled: z.boolean().optional() })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, {
    message: 'Name a role or whether the account is disabled',
  });

/** `qrSvg`: the otpauth:// address as a QR code (an SVG document) for the app to scan. */
export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() });
/** Ten single-use codes, each good once in place of the app's code; shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const recoveryCodesRenewSchema = z.object({ password });
/** "Forgot password?": the same answer for any address. */
export const staffForgotPasswordSchema = z.object({ email: emailField('Please enter your e-mail address') });
export type StaffForgotPassword = z.input<typeof staffForgotPasswordSchema>;
export const totpCodeSchema = z.object({ code: totpCode });
export const totpDisableSchema = z.object({ password });

export const staffIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
