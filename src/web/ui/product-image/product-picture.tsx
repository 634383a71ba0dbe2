import type { ImgHTMLAttributes } from 'react';
import type { Product } from '../../../contract/catalog.ts';
import { photoFallbackWidth, photoSrcset, photoUrl } from '../../../contract/photos.ts';
import { ProductImage } from './product-image.tsx';

type ProductImageData = Product['images'][number];

/**
 * A product's picture: an uploaded photo as a `<picture>` (AVIF, then WebP) with a srcset of its
 * widths, its own width and height (so its box is kept before it loads) and `sizes` saying how wide
 * it is drawn; a drawing (no uploads) as it always was. Lazy unless told otherwise: the page's
 * first, main image is eager and `fetchPriority="high"`.
 */
export function ProductPicture({
  image,
  sizes,
  width,
  height,
  ...rest
}: { image: ProductImageData | undefined; sizes: string; width: number; height: number } & Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  'src' | 'srcSet' | 'sizes' | 'width' | 'height'
>) {
  const photo = image?.photo;
  if (!photo) return <ProductImage src={image?.imageUrl} width={width} height={height} {...rest} />;
  const webp = photo.formats.includes('webp');
  return (
    <picture>
      {photo.formats
        .filter((format) => format !== 'webp')
        .map((format) => (
          <source key={format} type={`image/${format}`} srcSet={photoSrcset(photo, format)} sizes={sizes} />
        ))}
      <ProductImage
        src={photoUrl(photo.key, photoFallbackWidth(photo, width), webp ? 'webp' : (photo.formats[0] ?? 'webp'))}
        srcSet={webp ? photoSrcset(photo, 'webp') : undefined}
        sizes={webp ? sizes : undefined}
        width={photo.width}
        height={photo.height}
        {...rest}
      />
    </picture>
  );
}
