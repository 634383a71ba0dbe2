import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../db/schema.ts';
import type { PhotoStore } from './photo-store.ts';
import { findMainPhotoThumbnails } from './photos.repository.ts';

/** Pixels across a picture printed beside a packing slip's line (about 2 cm at 150 dpi). */
const PRINT_WIDTH = 120;

/**
 * Each product's main photo as a small JPEG, for a PDF (PDFKit draws JPEG and PNG, not the WebP and
 * AVIF the shop keeps): the smallest WebP converted by sharp, whose work runs in libuv's threads,
 * not on the event loop. A product without an uploaded photo has none.
 */
export async function printPictures(
  db: Kysely<Database>,
  store: PhotoStore,
  productIds: readonly number[],
): Promise<Map<number, Uint8Array>> {
  const thumbnails = await findMainPhotoThumbnails(db, [...new Set(productIds)]);
  const pictures = new Map<number, Uint8Array>();
  for (const thumbnail of thumbnails) {
    const webp = await store.read({ key: thumbnail.key, width: thumbnail.width, format: 'webp' });
    if (!webp) continue;
    const jpeg = await sharp(webp)
      .resize({ width: PRINT_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer();
    pictures.set(thumbnail.productId, new Uint8Array(jpeg));
  }
  return pictures;
}
