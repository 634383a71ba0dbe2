import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { MIN_PASSWORD_LENGTH } from '../../contract/accounts.ts';

/**
 * Passwords (docs/rules.md#accounts-and-sessions): at least 10 characters, not a common password, stored as an
 * scrypt hash (N=2^15, r=8, p=1) with a random salt.
 */

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

/** Passwords people pick most often, at 10 characters or more (the shorter ones fail on length). */
const common = new Set(
  [
    '1234567890',
    '12345678910',
    '123456789a',
    'qwertyuiop',
    'password1',
    'password12',
    'password123',
    'password1234',
    'iloveyou123',
    'qwerty1234',
    'qwerty12345',
    '1q2w3e4r5t',
    '1qaz2wsx3edc',
    'abcdefghij',
    'abcd123456',
    'a123456789',
    'letmein123',
    'welcome123',
    'football123',
    'princess12',
    'sunshine12',
    'monkey12345',
    'dragon1234',
    'baseball12',
    'trustno1234',
    'whatever12',
    'starwars12',
    'passw0rd123',
    'p@ssw0rd123',
    'administrator',
    'changeme123',
    'qazwsxedcrfv',
    '0987654321',
    '1111111111',
    '0000000000',
    'aaaaaaaaaa',
    'asdfghjkl1',
    'zxcvbnm123',
    'superman12',
    'harmonium123',
    'tabla12345',
    'bollywood1',
    'manchester1',
    'liverpool1',
    'chelsea123',
    'arsenal123',
  ].map((p) => p.toLowerCase()),
);

/** Why a password is refused, or undefined when it will do. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `at least ${MIN_PASSWORD_LENGTH} characters`;
  if (common.has(password.toLowerCase())) return 'a password people use too often';
  if (new Set(password).size < 4) return 'too few different characters';
  return undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return timingSafeEqual(actual, expected);
}

/** A hash no password matches: signing in to an unknown address costs the same time as a known one. */
export const decoyHash = hashPassword(randomBytes(16).toString('hex'));
