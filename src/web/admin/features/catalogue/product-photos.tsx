import { Link } from 'react-router';
import type { ProductDetail } from '../../../../contract/admin/catalogue.ts';

/**
 * The product form's place for photos: the photos the product has, and a link to their own page
 * (`/admin/products/:id/photos`), where they are uploaded, ordered, made main and deleted.
 */
export function ProductPhotos({ product }: { product: Pick<ProductDetail, 'id' | 'title' | 'images'> | undefined }) {
  return (
    <section className="adm-card" aria-labelledby="product-photos" data-testid="product-photos">
      <h2 id="product-photos">Photos</h2>
      {!product ? (
        <p className="adm-hint">Photos can be added once the product is saved.</p>
      ) : product.images.length === 0 ? (
        <p className="adm-hint">
          This product has no photos yet; the shop shows a drawing in their place.{' '}
          <Link to={`/products/${product.id}/photos`}>Add photos</Link>
        </p>
      ) : (
        <ul className="adm-photos">
          {product.images.map((image, index) => (
            <li key={image.imageUrl}>
              <img src={image.imageUrl} alt={`Photo ${index + 1} of ${product.title}`} width={96} height={96} />
              {index === 0 && <span className="adm-badge">Main</span>}
            </li>
          ))}
        </ul>
      )}
      {product && product.images.length > 0 && (
        <p>
          <Link to={`/products/${product.id}/photos`}>Upload, order or delete photos</Link>
        </p>
      )}
    </section>
  );
}
