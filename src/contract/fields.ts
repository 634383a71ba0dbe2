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

/**
 * A field over its length says which field, as the shop words it ("First name: at most 50
 * characters", issue 32): the spec has no text for it, and "at most 50 characters" alone, in a
 * server's 400 or under a field, leaves the shopper to guess which one. `name` is the field's name
 * as a message starts; without it, the old wording (the back office's own fields).
 */
export function tooLong(max: number, name?: string): string {
  return name ? `${name}: at most ${max} characters` : `at most ${max} characters`;
}

export function requiredText(message: string, max: number, name?: string) {
  return z.string({ error: message }).trim().min(1, message).max(max, tooLong(max, name));
}

/** Text that may be left empty, within its length. */
export function optionalText(max: number, name: string) {
  return z.string().trim().max(max, tooLong(max, name)).optional().default('');
}

/**
 * A phone number as people write it: digits grouped by spaces, hyphens or dots, an area code in
 * brackets, "+44 (0)" or "0044" before a UK number, or another country's "+" number (issue 32).
 * The check reads the digits only; the number is kept as the shopper typed it (trimmed), since it
 * is only ever read by people (the shopper on Review, staff ringing about an order), who read their
 * own grouping best, and nothing dials or matches it by machine.
 */
export function isPhoneNumber(typed: string): boolean {
  if (!/^[\d\s().+-]+$/.test(typed)) return false;
  const digits = typed.replace(/[\s().-]/g, '');
  // A UK number: 0 then 9 or 10 digits, or +44 / 0044 with the 0 in brackets or left out.
  if (/^(?:0|(?:\+|00)440?)[1-9]\d{8,9}$/.test(digits)) return true;
  // Another country's number in international form (E.164: at most 15 digits).
  return /^\+(?!44)[1-9]\d{6,14}$/.test(digits);
}

/** A required phone number (`isPhoneNumber`), within its length; refused with `message`. */
export function phoneField(message: string, max: number, name: string) {
  return requiredText(message, max, name).refine(isPhoneNumber, message);
}

/**
 * Whether text stays on one line: no line breaks or other control characters, since it may end up
 * in a mail header (a contact enquiry's name is the shop's subject line) or as one line of an
 * e-mail (a name or address line in the order e-mails, the shop's list of new orders).
 */
export function isOneLine(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  return !/[\u0000-\u001f\u007f]/.test(text);
}

/**
 * One line (`isOneLine`) of whole characters, without the controls that turn text around: a lone
 * UTF-16 surrogate cannot be written into a URL or many a PDF (it made two-factor set-up fail), and
 * a right-to-left override would make a shop's name read otherwise than it is.
 */
export function isPlainLine(text: string): boolean {
  return (
    isOneLine(text) &&
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text) &&
    !/[\u202A-\u202E\u2066-\u2069]/.test(text)
  );
}

/** Required text on one line (`isOneLine`), within its length. */
export function oneLineText(message: string, max: number, oneLineMessage: string, name?: string) {
  return requiredText(message, max, name).refine(isOneLine, oneLineMessage);
}
