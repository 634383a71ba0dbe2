import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { SearchRequest, SearchResponse } from '../../../../contract/catalog.ts';
import { DEFAULT_PAGE_SIZE } from '../../../../contract/catalog-rules.ts';
import { pageQueryKeys } from '../../../../contract/page-data.ts';
import type { SearchFilters } from '../../../../contract/search-filters.ts';
import { requestJson } from '../../../lib/api.ts';

/** POST /api/search, a page at a time; LOAD MORE fetches the next while isNextPage. */
export function productSearchQueryOptions(filters: SearchFilters) {
  return infiniteQueryOptions({
    queryKey: pageQueryKeys.search(filters),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => {
      const body: SearchRequest = {
        title: filters.keyword,
        typeId: filters.typeIds,
        brandId: filters.brandIds,
        pageSize: DEFAULT_PAGE_SIZE,
        pageNumber: pageParam,
        sort: filters.sort,
      };
      return requestJson<SearchResponse>('/api/search', { method: 'POST', body: JSON.stringify(body), signal });
    },
    getNextPageParam: (last) => (last.isNextPage ? last.pageNumber + 1 : undefined),
  });
}

export function useProductSearch(filters: SearchFilters) {
  return useInfiniteQuery(productSearchQueryOptions(filters));
}
