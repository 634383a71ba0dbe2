import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Brand, Country, ProductType, StockDetail, Title } from '../../contract/catalog.ts';
import { pageQueryKeys } from '../../contract/page-data.ts';
import { requestJson } from './api.ts';

/** Catalogue calls that several features need (the layout, search, cards). */

export function productTypesQueryOptions() {
  return queryOptions({
    queryKey: pageQueryKeys.productTypes(),
    queryFn: ({ signal }) => requestJson<ProductType[]>('/api/product-types', { signal }),
    staleTime: 10 * 60_000,
  });
}

export function brandsQueryOptions() {
  return queryOptions({
    queryKey: pageQueryKeys.brands(),
    queryFn: ({ signal }) => requestJson<Brand[]>('/api/brands', { signal }),
    staleTime: 10 * 60_000,
  });
}

export function useProductTypes() {
  return useQuery(productTypesQueryOptions());
}

export function useBrands() {
  return useQuery(brandsQueryOptions());
}

export function fetchStockDetails(ids: number[], signal?: AbortSignal): Promise<StockDetail[]> {
  const query = ids.map((id) => `id=${encodeURIComponent(id)}`).join('&');
  return requestJson<StockDetail[]>(`/api/product-stock?${query}`, { signal: signal ?? null });
}

/** A type's name by id, searching the whole tree. */
export function findType(types: ProductType[] | undefined, id: number): ProductType | undefined {
  for (const type of types ?? []) {
    if (type.id === id) return type;
    const child = findType(type.childTypes, id);
    if (child) return child;
  }
  return undefined;
}

export function useCountries() {
  return useQuery({
    queryKey: ['countries'],
    queryFn: ({ signal }) => requestJson<Country[]>('/api/countries', { signal }),
    staleTime: Infinity,
  });
}

export function useTitles() {
  return useQuery({
    queryKey: ['titles'],
    queryFn: ({ signal }) => requestJson<Title[]>('/api/titles', { signal }),
    staleTime: Infinity,
  });
}
