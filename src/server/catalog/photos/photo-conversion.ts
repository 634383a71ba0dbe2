import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { photoLimits, type PhotoFormat } from '../../../contract/photos.ts';
import { BadRequestError } from '../../errors.ts';

/**
 * Turning an upload into the photos the shop serves (docs/back-office.md#product-photos): the type
 * is read from the bytes (never the file's name or declared type), then sharp draws it upright, in
 * sRGB, without its metadata (EXIF, GPS, ICC), as AVIF and WebP at each width up to its own, never
 * larger. sharp works on libuv's threads, not the event loop; the callers limit how many run at
 * once (conversion-limiter.ts), and each uses one thread of libvips, so a conversion never takes
 * every core from the requests.
 */

sharp.concurrency(1);
// Every upload is new: libvips' operation cache would only hold memory.
sharp.cache(false);

export type SourceFormat = 'jpeg' | 'png' | 'webp';

/** The widths a photo is kept at; the largest is also the widest served. */
export const PHOTO_WIDTHS = [320, 640, 1024, 1600] as const;

/**
 * Measured on the development machine (docs/decisions/0011-product-photo-storage.md): a 12-megapixel
 * JPEG at these four widths takes 560 ms as WebP at effort 4 and 250 ms as AVIF at effort 0, whose
 * files are about 38% smaller at the same PSNR; AVIF at its default effort 4 took 7.6 s, so it is
 * not used.
 */
const encoders: Record<PhotoFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 0 }),
  webp: (image) => image.webp({ quality: 80, effort: 4 }),
};

/** Changing the conversion changes every key, so a browser's year-long cache never shows an old rendering. */
const CONVERSION_VERSION = `1:${PHOTO_WIDTHS.join(',')}:avif-q50-e0:webp-q80-e4`;

export interface ConvertedVariant {
  format: PhotoFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

export interface ConvertedPhoto {
  key: string;
  sourceFormat: SourceFormat;
  sourceBytes: number;
  width: number;
  height: number;
  variants: ConvertedVariant[];
}

/** The image type the bytes begin with (their magic number), if it is one the shop takes. */
export function sniffImageType(bytes: Uint8Array): SourceFormat | undefined {
  const starts = (offset: number, ...values: number[]) => values.every((value, i) => bytes[offset + i] === value);
  if (starts(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // RIFF....WEBP
  if (starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return undefined;
}

/** The widths kept for a picture `width` pixels wide: the standard ones below it, and its own up to the largest. */
export function variantWidths(width: number): number[] {
  const largest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1] as number;
  const below = PHOTO_WIDTHS.filter((w) => w < width);
  return width >= largest ? [...PHOTO_WIDTHS] : [...below, width];
}

function refused(name: string, why: string): BadRequestError {
  return new BadRequestError(`${name}: ${why}`, 'file');
}

/** The first bytes of a file: enough to tell its type. */
async function headOf(path: string): Promise<Buffer> {
  const file = await open(path);
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * Checks and converts one upload, read from the file it was saved to (an upload waiting its turn
 * holds a file on disk, not its bytes: issue 31); a file that is not a JPEG, PNG or WebP picture,
 * or is too large or too tall to keep, is a 400 naming it.
 */
export async function convertPhoto(path: string, name: string): Promise<ConvertedPhoto> {
  const sourceFormat = sniffImageType(await headOf(path));
  if (!sourceFormat) throw refused(name, 'this is not a JPEG, PNG or WebP picture (whatever its name says).');
  const input = { limitInputPixels: photoLimits.maxPixels, failOn: 'warning' as const };
  let metadata: Metadata;
  try {
    // The header alone is read here, so the decoder's pixel limit is not needed yet: with it, a
    // picture of too many pixels was refused as unreadable before the check below could name the limit.
    metadata = await sharp(path, { ...input, limitInputPixels: false }).metadata();
  } catch {
    throw refused(name, 'this file could not be read as a picture.');
  }
  if (metadata.format !== sourceFormat) throw refused(name, 'this file could not be read as a picture.');
  const { width, height } = metadata.autoOrient;
  if (width * height > photoLimits.maxPixels) {
    throw refused(name, `the picture is ${width} × ${height} pixels; at most 50 megapixels, please.`);
  }
  const widths = variantWidths(width);
  // The encoders take at most 16,383 (WebP) or 16,384 (AVIF) pixels a side: a long strip drawn at
  // its largest width was a 500 "too large for the HEIF format".
  const tallest = Math.round((height * (widths.at(-1) as number)) / width);
  if (tallest > photoLimits.maxHeight) {
    throw refused(
      name,
      `the picture is ${width} × ${height} pixels; drawn ${widths.at(-1)} pixels wide it would be ${tallest} tall, and a photo may be at most ${photoLimits.maxHeight.toLocaleString('en-GB')} pixels tall. Please crop it.`,
    );
  }
  let upright: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once, upright and no wider than the largest width; every variant is made from this.
    upright = await sharp(path, input)
      .autoOrient()
      .resize({ width: widths.at(-1), withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw refused(name, 'this file is damaged or is not the picture it claims to be.');
  }
  const raw = {
    raw: { width: upright.info.width, height: upright.info.height, channels: upright.info.channels },
  };
  const variants: ConvertedVariant[] = [];
  for (const format of ['avif', 'webp'] as const) {
    for (const w of widths) {
      const out = await encoders[format](
        sharp(upright.data, raw).resize({ width: w, withoutEnlargement: true }),
      ).toBuffer({
        resolveWithObject: true,
      });
      variants.push({ format, width: out.info.width, height: out.info.height, bytes: out.data });
    }
  }
  const sourceBytes = (await stat(path)).size;
  return { key: await photoKey(path), sourceFormat, sourceBytes, width, height, variants };
}

/** A hash of the upload and of the conversion: the variants' names (the file hashed as it is read, 64 kB at a time). */
async function photoKey(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const digest = hash.digest('hex');
  return createHash('sha256').update(`${CONVERSION_VERSION}:${digest}`).digest('hex').slice(0, 32);
}
