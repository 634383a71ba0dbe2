import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Reading the outbox's .eml files back: headers, the plain-text body, and the links in it. */

/** Quoted-printable UTF-8 as text. */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}$/.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface StoredMail {
  file: string;
  to: string;
  subject: string;
  date: string;
  raw: string;
}

export async function readStoredMail(dir: string): Promise<StoredMail[]> {
  let files: string[];
  try {
    files = (await readdir(dir))
      .filter((file) => /^[\w.-]+\.eml$/.test(file))
      .sort()
      .reverse();
  } catch {
    return [];
  }
  return Promise.all(
    files.slice(0, 200).map(async (file) => {
      const raw = await readFile(join(dir, file), 'utf8');
      const header = (name: string) =>
        decodeHeader(new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw)?.[1] ?? '');
      return { file, to: header('To'), subject: header('Subject'), date: header('Date'), raw };
    }),
  );
}

/**
 * A header's value as its words: unfolded, and its encoded words (RFC 2047, "=?UTF-8?Q?...?=" or
 * "?B?", which the mail program writes for anything past ASCII) decoded. The shop writes UTF-8 only.
 */
export function decodeHeader(value: string): string {
  return value
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replaceAll('_', ' ')),
    )
    .trim();
}

/** The plain-text part of a message, decoded. */
export function plainText(raw: string): string {
  const part = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*\n([\s\S]*?)(?:\n--[^\n]+|$)/i.exec(raw)?.[1] ?? raw;
  return decodeQuotedPrintable(part).trim();
}

export function linksIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
}
