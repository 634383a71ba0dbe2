import { useRef, useState } from 'react';
import type { Product } from '../../../contract/catalog.ts';
import { productPageImageSizes } from '../../../contract/photos.ts';
import { ProductPicture } from '../../ui/product-image/product-picture.tsx';
import styles from './product.module.css';

/** Main image, thumbnails, and a full-size overlay (Escape or Close shuts it; focus goes back). */
export function Gallery({ product }: { product: Product }) {
  const images = product.images.length > 0 ? product.images : [{ imageUrl: product.defaultImageUrl }];
  const [current, setCurrent] = useState(0);
  const overlay = useRef<HTMLDialogElement>(null);
  const shown = images[current] ?? { imageUrl: product.defaultImageUrl };
  return (
    <div className={styles.gallery}>
      <button
        type="button"
        className={styles.mainImage}
        onClick={() => overlay.current?.showModal()}
        aria-label={`Enlarge picture ${current + 1} of ${product.title}`}
      >
        <ProductPicture
          image={shown}
          sizes={productPageImageSizes}
          alt={product.title}
          width={600}
          height={600}
          loading="eager"
          fetchPriority="high"
        />
      </button>
      {images.length > 1 && (
        <ul className={styles.thumbs} aria-label="More pictures">
          {images.map((image, i) => (
            <li key={`${image.imageUrl}-${i}`}>
              <button
                type="button"
                className={styles.thumb}
                aria-pressed={i === current}
                aria-label={`Show picture ${i + 1}`}
                onClick={() => setCurrent(i)}
              >
                <ProductPicture image={image} sizes="80px" alt="" width={80} height={80} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <dialog ref={overlay} className={styles.overlay} aria-label={`${product.title}, full size`}>
        <ProductPicture image={shown} sizes="min(95vw, 900px)" alt={product.title} width={900} height={900} />
        <button type="button" className="button" onClick={() => overlay.current?.close()}>
          Close
        </button>
      </dialog>
    </div>
  );
}
