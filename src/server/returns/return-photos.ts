import sharp from 'sharp';
import { photoLimits } from '../../contract/photos.ts';
import { sniffImageType } from '../catalog/photos/photo-conversion.ts';
import { BadRequestError } from '../errors.ts';
import type { ReturnPhoto } from './returns.service.ts';

/**
 * A shopper's photo of damage as the shop keeps it: drawn again from its pixels, upright, in the
 * type its bytes begin with, without its metadata (EXIF, GPS, ICC). An outside attack sent a JPEG's
 * first bytes followed by HTML and saw it kept as it came; now only what decodes as a picture is
 * kept, and nothing stuck on after it. Product photos do the same (catalog/photos/photo-conversion.ts).
 */
export async function reencodeReturnPhoto(bytes: Buffer, name: string): Promise<ReturnPhoto> {
  const type = sniffImageType(bytes);
  if (!type) throw refused(name, 'please send a JPEG, PNG or WebP picture.');
  const input = { limitInputPixels: photoLimits.maxPixels, failOn: 'warning' as const };
  try {
    if ((await sharp(bytes, { ...input, limitInputPixels: false }).metadata()).format !== type)
      throw refused(name, 'this file could not be read as a picture.');
    const image = sharp(bytes, input).autoOrient();
    const encoded =
      type === 'jpeg' ? image.jpeg({ quality: 85 }) : type === 'png' ? image.png() : image.webp({ quality: 85 });
    return { contentType: `image/${type}`, bytes: await encoded.toBuffer() };
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw refused(name, 'this file is damaged or is not the picture it claims to be.');
  }
}

function refused(name: string, why: string): BadRequestError {
  return new BadRequestError(`${name}: ${why}`, 'photo');
}
