import { createCipheriv, createDecipheriv } from 'node:crypto';

/**
 * Opayo (Sage Pay) Form protocol 4.00 Crypt field (docs/rules.md#payments): `Name=Value` pairs joined
 * by `&`, values not URL-encoded, text in ISO-8859-1, AES-128-CBC with PKCS#5 padding, key and
 * IV both the 16-byte encryption password, upper-case hex after a leading `@`.
 */

export function encryptCrypt(plaintext: string, password: string): string {
  const key = Buffer.from(password, 'latin1');
  const cipher = createCipheriv('aes-128-cbc', key, key);
  const encrypted = Buffer.concat([cipher.update(Buffer.from(plaintext, 'latin1')), cipher.final()]);
  return `@${encrypted.toString('hex').toUpperCase()}`;
}

/** Decrypts a Crypt in either hex case; throws on anything that is not one. */
export function decryptCrypt(crypt: string, password: string): string {
  const hex = crypt.startsWith('@') ? crypt.slice(1) : crypt;
  if (!/^(?:[0-9a-fA-F]{32})+$/.test(hex)) throw new Error('not an Opayo crypt');
  const key = Buffer.from(password, 'latin1');
  const decipher = createDecipheriv('aes-128-cbc', key, key);
  return Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]).toString('latin1');
}

/**
 * Decrypts a return's Crypt without throwing and in the same steps whatever its padding, for the
 * return URL: a padding error thrown and caught took measurably longer than a good padding, which
 * an outside review could time (ADR 0008). Answers the text, and whether the padding was right;
 * with a bad padding the text is the whole decrypted block sequence, to be read and then ignored.
 */
export function openCrypt(crypt: string, password: string): { text: string; paddingValid: boolean } {
  const hex = crypt.startsWith('@') ? crypt.slice(1) : crypt;
  if (!/^(?:[0-9a-fA-F]{32})+$/.test(hex)) return { text: '', paddingValid: false };
  const key = Buffer.from(password, 'latin1');
  const decipher = createDecipheriv('aes-128-cbc', key, key).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]);
  const pad = plain[plain.length - 1] ?? 0;
  // Every byte of the last block is looked at, whatever the padding turns out to be.
  let wrong = Number(pad < 1 || pad > 16);
  for (let i = 1; i <= 16; i++) {
    const inPadding = Number(i <= pad);
    wrong |= inPadding & Number(plain[plain.length - i] !== pad);
  }
  const length = plain.length - (wrong ? 0 : pad);
  return { text: plain.subarray(0, length).toString('latin1'), paddingValid: wrong === 0 };
}

/**
 * `Name=Value&Name=Value`. Values may contain `=` but not `&` (the protocol has no escaping), so
 * callers clean values before they get here.
 */
export function encodeFields(fields: Array<[string, string]>): string {
  return fields.map(([name, value]) => `${name}=${value}`).join('&');
}

export function decodeFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    if (at > 0) fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}
