import { createHash, randomInt } from 'node:crypto';

/**
 * Two-factor recovery codes (docs/back-office.md#staff-accounts): ten a member, each good once in
 * place of the app's code. Twelve characters from 31 that are hard to confuse (no 0/o, 1/l/i),
 * about 59 bits each, written in fours: `k7qm-2xfp-9hbt`. Only a hash is kept, salted with the
 * member's id so one table of guesses cannot be tried against every member at once.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 12;
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    codes.add(chars.match(/.{4}/g)!.join('-'));
  }
  return [...codes];
}

/** The stored form of a code as typed: any case, with or without its dashes and spaces. */
export function recoveryCodeHash(staffId: number, typed: string): string {
  const code = typed.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`${staffId}:${code}`).digest('hex');
}
