/**
 * Uploaded product photos as the storefront and the back office name them
 * (docs/back-office.md#product-photos), zod-free so a page can use them cheaply. Each photo is kept
 * at several widths in each format, at `/images/photos/{key}-{width}.{format}`; the key is a hash
 * of the uploaded bytes and of how they were converted, so a name never changes its content and
 * is cached for a year (docs/decisions/0011-product-photo-storage.md).
 */

/** Best first: a `<picture>` offers them in this order. */
export const photoFormats = ['avif', 'webp'] as const;
export type PhotoFormat = (typeof photoFormats)[number];

export const photoContentTypes: Record<PhotoFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

/** What the storefront needs to draw a photo: its name, its upright size and the widths it is kept at. */
export interface PhotoSources {
  key: string;
  width: number;
  height: number;
  widths: number[];
  formats: PhotoFormat[];
}

/** What staff may upload (checked from the bytes, never the name). */
export const photoLimits = {
  maxBytes: 15 * 1024 * 1024,
  maxPhotosPerProduct: 20,
  maxFilesPerUpload: 10,
  /** Larger pictures are refused before they are decoded (a "decompression bomb" guard). */
  maxPixels: 50_000_000,
  /**
   * The tallest a photo may be once drawn at its largest width (1,600 px, or its own if narrower):
   * WebP takes at most 16,383 pixels a side and AVIF 16,384.
   */
  maxHeight: 16_383,
} as const;

export const photoFilePattern = /^([0-9a-f]{32})-(\d{1,4})\.(avif|webp)$/;

export function photoUrl(key: string, width: number, format: PhotoFormat): string {
  return `/images/photos/${key}-${width}.${format}`;
}

/** The `srcset` of a photo in one format: every width it is kept at. */
export function photoSrcset(photo: PhotoSources, format: PhotoFormat): string {
  return photo.widths.map((width) => `${photoUrl(photo.key, width, format)} ${width}w`).join(', ');
}

/** The width to give as `src` where a srcset is not read: the one nearest `wanted` from above. */
export function photoFallbackWidth(photo: PhotoSources, wanted: number): number {
  return photo.widths.find((width) => width >= wanted) ?? photo.widths.at(-1) ?? photo.width;
}

/**
 * How wide a product card's picture is drawn (src/web/ui/product-grid, product-card). Below 720 px
 * the grid fits as many 156 px columns as it can with 12 px gaps inside the page's 16 px padding:
 * two up to 523 px, three up to 691 px, then four; each picture is its column less the card's 1 px
 * borders. From 720 px a card is 280 to about 400 px wide.
 */
export const productCardImageSizes = [
  '(max-width: 523px) calc(50vw - 24px)',
  '(max-width: 691px) calc(33.33vw - 21px)',
  '(max-width: 719px) calc(25vw - 19px)',
  '400px',
].join(', ');

/**
 * How wide the product page's main image is drawn (src/web/features/product/product.module.css):
 * the page's `sizes`, and the server's preload of it (src/server/seo/page-head.ts), which must agree.
 */
export const productPageImageSizes =
  '(max-width: 820px) calc(100vw - 32px), (max-width: 1240px) calc(50vw - 32px), 588px';
