import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { AdminPage } from '../../../lib/admin-page.tsx';
import { productPhotosQueryOptions } from './api/photos.ts';
import { ProductPhotos } from './product-photos.tsx';

/** `/admin/products/:id/photos`: a product's photos on a page of their own (the product's edit page also holds them). */
export default function ProductPhotosPage() {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const photos = useQuery({ ...productPhotosQueryOptions(id), enabled: valid });
  const title = photos.data ? `Photos of ${photos.data.productTitle}` : 'Product photos';
  return (
    <AdminPage title={title}>
      {photos.data && (
        <p>
          <a href={`/products/${encodeURIComponent(photos.data.urlKey)}`}>See the product in the shop</a>
        </p>
      )}
      {valid ? <ProductPhotos productId={id} /> : <p role="alert">There is no such product.</p>}
    </AdminPage>
  );
}
