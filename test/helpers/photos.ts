import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** Real pictures made for a test, and the multipart bodies a browser would send them in. */

export type PictureFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/**
 * A `width` × `height` picture: a gradient with a few shapes (so it is not one flat colour), as
 * JPEG, PNG, WebP or GIF; `exif` adds a camera's metadata (with an orientation when given).
 */
export async function makePicture(
  format: PictureFormat,
  width: number,
  height: number,
  options: { orientation?: number; exif?: boolean } = {},
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#a0522d"/><stop offset="1" stop-color="#f3e2c3"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 3}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#c0392b"/>
    <rect x="${width / 2}" y="${height / 4}" width="${width / 4}" height="${height / 2}" fill="#1f7a5c"/>
  </svg>`;
  let image = sharp(Buffer.from(svg));
  if (options.exif || options.orientation) {
    image = image.withExif({ IFD0: { Make: 'Test Camera', Copyright: 'Test photographer' } });
    if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  }
  if (format === 'jpeg') return image.jpeg({ quality: 85 }).toBuffer();
  if (format === 'png') return image.png().toBuffer();
  if (format === 'webp') return image.webp({ quality: 85 }).toBuffer();
  return image.gif().toBuffer();
}

export interface FilePart {
  filename: string;
  contentType: string;
  bytes: Buffer;
  /** The form field's name; `file` unless a test says otherwise. */
  field?: string;
}

/** A multipart/form-data body with these files, and its content type. */
export function multipart(files: FilePart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----shop-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
