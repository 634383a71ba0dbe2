import { z } from 'zod';

/**
 * Account payloads (spec sections 3 and 7; DESIGN.md section 6). Registration takes what the form
 * sends and answers an errorCode (0 to 4): a missing field is code 1, not a 400.
 */

export const registrationErrorCodes = {
  ok: 0,
  missingDetails: 1,
  invalidPassword: 2,
  notConfirmed: 3,
  emailInUse: 4,
} as const;
export const MIN_PASSWORD_LENGTH = 10;

const text = (max: number) => z.string().max(max, `at most ${max} characters`).optional();

export const registrationSchema = z.object({
  titleId: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  email: text(254),
  firstname: text(50),
  lastname: text(50),
  password: text(200),
  confirm: text(200),
});
export type Registration = z.infer<typeof registrationSchema>;
export const registrationResponseSchema = z.object({ errorCode: z.number().int().min(0).max(4) });

export const signInSchema = z.object({
  username: z.string().max(254),
  password: z.string().max(200),
});

export const tokenBodySchema = z.object({ token: z.string().min(1).max(200) });
export const forgotPasswordSchema = z.object({ email: z.string().max(254) });
export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(200),
  confirm: z.string().max(200),
});
export const resetResponseSchema = z.object({ ok: z.boolean(), errorCode: z.number().int().min(0).max(4) });

export const whoAmISchema = z.object({ firstname: z.string(), lastname: z.string() });
export const okSchema = z.object({ ok: z.boolean() });
