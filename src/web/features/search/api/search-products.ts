import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { SearchResponse } from '../../../../contract/catalog.ts';
import { pageQueryKeys } from '../../../../contract/page-data.ts';
import { searchRequestFor, type SearchFilters } from '../../../../contract/search-filters.ts';
import { requestJson } from '../../../lib/api.ts';

/** POST /api/search, a page at a time; LOAD MORE fetches the next while isNextPage. */
export function productSearchQueryOptions(filters: SearchFilters) {
  return infiniteQueryOptions({
    queryKey: pageQueryKeys.search(filters),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      requestJson<SearchResponse>('/api/search', {
        method: 'POST',
        body: JSON.stringify(searchRequestFor(filters, pageParam)),
        signal,
      }),
    getNextPageParam: (last) => (last.isNextPage ? last.pageNumber + 1 : undefined),
  });
}

export function useProductSearch(filters: SearchFilters) {
  return useInfiniteQuery(productSearchQueryOptions(filters));
}
