import { z } from 'zod';
import { addressFieldLimits, guestFieldLimits, UK_POSTCODE } from './basket-rules.ts';
import { emailField, isOneLine, oneLineText, optionalText, phoneField, requiredText, tooLong } from './fields.ts';
import { messages } from './messages.ts';
import { orderStatuses } from './order-status.ts';

/**
 * Account payloads (docs/rules.md#accounts-and-sessions). Registration takes what the form
 * sends and answers an errorCode (0 to 4): a missing field is code 1, not a 400.
 */

export const registrationErrorCodes = {
  ok: 0,
  missingDetails: 1,
  invalidPassword: 2,
  notConfirmed: 3,
  /** The spec's "e-mail already in use": no longer answered, as it told who has an account. */
  emailInUse: 4,
} as const;
export const MIN_PASSWORD_LENGTH = 10;

const names = messages.fieldNames;
const text = (max: number, name: string) => z.string().max(max, tooLong(max, name)).optional();
/** A name or address line is printed as one line of the account's and orders' e-mails. */
const oneLine = messages.contact.oneLine;
const oneLineName = (max: number, name: string) =>
  z.string().max(max, tooLong(max, name)).refine(isOneLine, oneLine).optional();

export const registrationSchema = z.object({
  titleId: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  email: text(254, names.email),
  firstname: oneLineName(50, names.firstname),
  lastname: oneLineName(50, names.lastname),
  password: text(200, names.password),
  confirm: text(200, names.confirm),
});
export type Registration = z.infer<typeof registrationSchema>;
export const registrationResponseSchema = z.object({ errorCode: z.number().int().min(0).max(4) });

export const signInSchema = z.object({
  username: z.string().max(254),
  password: z.string().max(200),
});

/** POST /api/resend-activation: the same credentials as sign-in, so only the account's owner can ask. */
export const resendActivationSchema = signInSchema;

/** The sign-in form, on the login page and at checkout: what it checks before it calls sign-in. */
export const signInFormSchema = z.object({
  email: emailField(messages.login.email),
  password: z.string().min(1, messages.login.password).max(200),
});
export type SignInForm = z.infer<typeof signInFormSchema>;

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

/** My Account (docs/rules.md#accounts-and-sessions): address lines 1 and 2 are required, line 3 is not. */
const accountAddress = z.object({
  line1: oneLineText(messages.address.line1, addressFieldLimits.line1, oneLine, names.line1),
  line2: oneLineText(messages.address.line2, addressFieldLimits.line2, oneLine, names.line2),
  line3: optionalText(addressFieldLimits.line3, names.line3).refine(isOneLine, oneLine),
  postcode: requiredText(messages.address.postcode, addressFieldLimits.postcode, names.postcode).pipe(
    z.string().regex(UK_POSTCODE, messages.address.postcode),
  ),
  townCity: oneLineText(messages.address.townCity, addressFieldLimits.townCity, oneLine, names.townCity),
  countryId: z.number({ error: messages.address.country }).int().min(1, messages.address.country),
});

export const accountSchema = z.object({
  titleId: z.number({ error: messages.address.title }).int().min(1, messages.address.title),
  firstname: oneLineText(messages.address.firstname, guestFieldLimits.firstname, oneLine, names.firstname),
  lastname: oneLineText(messages.address.lastname, guestFieldLimits.lastname, oneLine, names.lastname),
  contactNumber: phoneField(messages.address.contactNumber, guestFieldLimits.contactNumber, names.contactNumber),
  billingAddress: accountAddress,
  deliveryAddress: accountAddress,
});
export type AccountDetails = z.input<typeof accountSchema>;

/** A saved address as stored: a new account has none yet, so every part may be empty. */
const savedAddress = z.object({
  line1: z.string(),
  line2: z.string(),
  line3: z.string(),
  postcode: z.string(),
  townCity: z.string(),
  countryId: z.number().int().nullable(),
});

export const accountAnswerSchema = z.object({
  titleId: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  contactNumber: z.string(),
  billingAddress: savedAddress,
  deliveryAddress: savedAddress,
});
export type AccountAnswer = z.infer<typeof accountAnswerSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z.string().max(200),
  password: z.string().max(200),
  confirm: z.string().max(200),
});

export const accountOrderSchema = z.object({
  orderNumber: z.number().int(),
  createdAt: z.string(),
  status: z.enum(orderStatuses),
  transactionId: z.string().nullable(),
  itemsTotal: z.number().int(),
  deliveryPrice: z.number().int(),
  discountAmount: z.number().int(),
  totalVat: z.number().int(),
  total: z.number().int(),
  /** The order's own page (`/order/{key}`), for a paid order; null for one never paid. */
  orderPagePath: z.string().nullable(),
  lines: z.array(
    z.object({ title: z.string(), sizeName: z.string(), quantity: z.number().int(), lineTotal: z.number().int() }),
  ),
});
export const accountOrderListSchema = z.array(accountOrderSchema);
export type AccountOrder = z.infer<typeof accountOrderSchema>;
