import type { AdminPhoto } from '../../../contract/admin/photos.ts';
import { photoFallbackWidth, photoFormats, photoUrl, type PhotoSources } from '../../../contract/photos.ts';
import type { PhotoRow, VariantRow } from './photos.repository.ts';

/** Photo rows as the storefront and the back office see them. */

/** `src` for a browser that reads no srcset, and the picture for link previews: about 1024 wide. */
const FALLBACK_WIDTH = 1024;

function sourcesOf(photo: PhotoRow, variants: VariantRow[]): PhotoSources {
  const formats = photoFormats.filter((format) => variants.some((v) => v.format === format));
  const widths = [...new Set(variants.filter((v) => v.format === 'webp').map((v) => v.width))].sort((a, b) => a - b);
  return { key: photo.photo_key, width: photo.width, height: photo.height, widths, formats };
}

function variantsByPhoto(variants: VariantRow[]): Map<number, VariantRow[]> {
  const byPhoto = new Map<number, VariantRow[]>();
  for (const variant of variants) {
    const list = byPhoto.get(variant.photo_id);
    if (list) list.push(variant);
    else byPhoto.set(variant.photo_id, [variant]);
  }
  return byPhoto;
}

/** Each product's photos as product images, main first; products without photos are not in the map. */
export function productImagesOf(
  photos: PhotoRow[],
  variants: VariantRow[],
): Map<number, Array<{ imageUrl: string; photo: PhotoSources }>> {
  const byPhoto = variantsByPhoto(variants);
  const images = new Map<number, Array<{ imageUrl: string; photo: PhotoSources }>>();
  for (const row of photos) {
    const sources = sourcesOf(row, byPhoto.get(row.id) ?? []);
    if (sources.widths.length === 0) continue;
    const image = {
      imageUrl: photoUrl(row.photo_key, photoFallbackWidth(sources, FALLBACK_WIDTH), 'webp'),
      photo: sources,
    };
    const list = images.get(row.product_id);
    if (list) list.push(image);
    else images.set(row.product_id, [image]);
  }
  return images;
}

export function adminPhotosOf(photos: PhotoRow[], variants: VariantRow[]): AdminPhoto[] {
  const byPhoto = variantsByPhoto(variants);
  return photos.map((row, index) => {
    const own = byPhoto.get(row.id) ?? [];
    return {
      id: row.id,
      position: index + 1,
      main: index === 0,
      width: row.width,
      height: row.height,
      sourceFormat: row.source_format,
      sourceBytes: row.source_bytes,
      createdAt: row.created_at,
      sources: sourcesOf(row, own),
      variants: own.map((v) => ({
        format: v.format,
        width: v.width,
        height: v.height,
        bytes: v.byte_size,
        url: photoUrl(row.photo_key, v.width, v.format),
      })),
    };
  });
}
