import { z } from 'zod';

/**
 * Field rules shared by forms and calls. An e-mail address may be up to 254 characters, with at
 * most 64 before the @ (docs/rules.md#api-answers-and-errors).
 */
export function emailField(requiredMessage: string, formatMessage = requiredMessage) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, formatMessage)
    .pipe(z.email(formatMessage))
    .refine((email) => (email.split('@')[0] ?? '').length <= 64, formatMessage);
}

/** The same rule as a plain check, for the server's own use (registration answers code 1, not a 400). */
export function isEmailAddress(value: string): boolean {
  return emailField('').safeParse(value).success;
}

export function requiredText(message: string, max: number) {
  return z.string({ error: message }).trim().min(1, message).max(max, `at most ${max} characters`);
}

/**
 * Text that must stay on one line: no line breaks or other control characters, since it may end
 * up in a mail header (a contact enquiry's name is the shop's subject line).
 */
export function oneLineText(message: string, max: number, oneLineMessage: string) {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  return requiredText(message, max).refine((text) => !/[\u0000-\u001f\u007f]/.test(text), oneLineMessage);
}
