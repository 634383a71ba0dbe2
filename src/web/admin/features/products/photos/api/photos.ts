import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ProductPhotos } from '../../../../../../contract/admin/photos.ts';
import { CSRF_HEADER } from '../../../../../../contract/csrf.ts';
import { ApiRequestError, tokenForChange, requestJson } from '../../../../../lib/api.ts';
import { catalogueProductsKey } from '../../../../lib/query-keys.ts';

/** A product's photos in the back office (docs/back-office.md#product-photos). */

const photosKey = (productId: number) => ['admin', 'products', productId, 'photos'] as const;
const base = (productId: number) => `/api/admin/products/${productId}/photos`;

export function productPhotosQueryOptions(productId: number) {
  return queryOptions({
    queryKey: photosKey(productId),
    queryFn: ({ signal }) => requestJson<ProductPhotos>(base(productId), { signal }),
  });
}

function keep(queryClient: QueryClient, photos: ProductPhotos): ProductPhotos {
  queryClient.setQueryData(photosKey(photos.productId), photos);
  // The product's page and the product lists show its photos too.
  void queryClient.invalidateQueries({ queryKey: catalogueProductsKey });
  return photos;
}

/**
 * Sends one file, telling `onProgress` the share sent so far (0 to 1). XMLHttpRequest, since fetch
 * cannot report an upload's progress. The answer is the product's photos with the new one.
 */
export function uploadPhoto(
  productId: number,
  file: File,
  onProgress: (sent: number) => void,
  queryClient: QueryClient,
): Promise<ProductPhotos> {
  // The token as every other call gets it (lib/api.ts): asked for first when no API answer set one.
  return tokenForChange().then(
    (token) =>
      new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', base(productId));
        xhr.responseType = 'json';
        xhr.setRequestHeader('accept', 'application/json');
        if (token) xhr.setRequestHeader(CSRF_HEADER, token);
        xhr.upload.addEventListener('progress', (event) => {
          if (event.lengthComputable) onProgress(event.loaded / event.total);
        });
        xhr.addEventListener('load', () => {
          const body = xhr.response as (ProductPhotos & { error?: { code?: string; message?: string } }) | null;
          if (xhr.status === 201 && body) return resolve(keep(queryClient, body));
          const error = body?.error;
          reject(new ApiRequestError(xhr.status, `upload answered ${xhr.status}`, error?.code, error?.message));
        });
        xhr.addEventListener('error', () => reject(new ApiRequestError(0, 'the upload did not reach the shop')));
        const form = new FormData();
        form.append('file', file, file.name);
        xhr.send(form);
      }),
  );
}

export async function reorderPhotos(productId: number, photoIds: number[], queryClient: QueryClient) {
  return keep(
    queryClient,
    await requestJson<ProductPhotos>(`${base(productId)}/order`, { method: 'PUT', body: JSON.stringify({ photoIds }) }),
  );
}

export async function makeMainPhoto(productId: number, photoId: number, queryClient: QueryClient) {
  return keep(queryClient, await requestJson<ProductPhotos>(`${base(productId)}/${photoId}/main`, { method: 'POST' }));
}

export async function deletePhoto(productId: number, photoId: number, queryClient: QueryClient) {
  return keep(queryClient, await requestJson<ProductPhotos>(`${base(productId)}/${photoId}`, { method: 'DELETE' }));
}
