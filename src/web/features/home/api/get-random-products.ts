import { queryOptions } from '@tanstack/react-query';
import type { Product } from '../../../../contract/catalog.ts';
import { HOME_SECTION_PRODUCT_COUNT } from '../../../../contract/catalog-rules.ts';
import { pageQueryKeys } from '../../../../contract/page-data.ts';
import { requestJson } from '../../../lib/api.ts';

/** A home section's products: HOME_SECTION_PRODUCT_COUNT picked at random from one type. */
export function randomProductsQueryOptions(typeId: number) {
  return queryOptions({
    queryKey: pageQueryKeys.homeSection(typeId),
    queryFn: ({ signal }) =>
      requestJson<Product[]>(`/api/products/random/${typeId}/${HOME_SECTION_PRODUCT_COUNT}`, { signal }),
    staleTime: 5 * 60_000,
  });
}
