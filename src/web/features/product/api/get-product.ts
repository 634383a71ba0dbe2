import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '../../../../contract/catalog.ts';
import { RELATED_PRODUCT_COUNT } from '../../../../contract/catalog-rules.ts';
import { pageQueryKeys } from '../../../../contract/page-data.ts';
import { requestJson } from '../../../lib/api.ts';

export function productQueryOptions(key: string) {
  return queryOptions({
    queryKey: pageQueryKeys.product(key),
    queryFn: ({ signal }) => requestJson<Product>(`/api/products/${encodeURIComponent(key)}`, { signal }),
    retry: false,
  });
}

export function relatedProductsQueryOptions(productId: number | undefined) {
  return queryOptions({
    queryKey: pageQueryKeys.relatedProducts(productId),
    enabled: productId !== undefined,
    queryFn: ({ signal }) => requestJson<Product[]>(`/api/products/${productId}/${RELATED_PRODUCT_COUNT}`, { signal }),
  });
}

export function useProduct(key: string) {
  return useQuery(productQueryOptions(key));
}

export function useRelatedProducts(productId: number | undefined) {
  return useQuery(relatedProductsQueryOptions(productId));
}
