import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  BrandInput,
  BrandView,
  ProductDetail,
  ProductInput,
  ProductList,
  ProductListQuery,
  ProductTypeInput,
  ProductTypeView,
} from '../../../../../contract/admin/catalogue.ts';
import type { Packaging } from '../../../../../contract/admin/shipping.ts';
import type { ProductStatus } from '../../../../../contract/catalog-rules.ts';
import { requestJson } from '../../../../lib/api.ts';
import { catalogueProductsKey } from '../../../lib/query-keys.ts';
import { searchOf } from '../product-filters.ts';

/** The back office's catalogue calls (docs/back-office.md#catalogue): products, types, brands. */
const catalogueKey = ['admin', 'catalogue'] as const;
const productsKey = catalogueProductsKey;
const typesKey = [...catalogueKey, 'types'] as const;
const brandsKey = [...catalogueKey, 'brands'] as const;

export function productListQueryOptions(query: ProductListQuery) {
  return queryOptions({
    queryKey: [...productsKey, 'list', query],
    queryFn: ({ signal }) => requestJson<ProductList>(`/api/admin/products${searchOf(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function productQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...productsKey, 'detail', id],
    queryFn: ({ signal }) => requestJson<ProductDetail>(`/api/admin/products/${id}`, { signal }),
  });
}

export function typesQueryOptions() {
  return queryOptions({
    queryKey: typesKey,
    queryFn: ({ signal }) => requestJson<ProductTypeView[]>('/api/admin/product-types', { signal }),
  });
}

export function brandsQueryOptions() {
  return queryOptions({
    queryKey: brandsKey,
    queryFn: ({ signal }) => requestJson<BrandView[]>('/api/admin/brands', { signal }),
  });
}

/** The packaging presets sizes are sent in (docs/back-office.md#shipping-labels). */
export function packagingsQueryOptions() {
  return queryOptions({
    queryKey: [...catalogueKey, 'packagings'],
    queryFn: ({ signal }) => requestJson<Packaging[]>('/api/admin/packagings', { signal }),
  });
}

/** Every change answers the product as it now is: shown at once, and the lists asked again. */
async function productChanged(product: ProductDetail, queryClient: QueryClient): Promise<ProductDetail> {
  queryClient.setQueryData(productQueryOptions(product.id).queryKey, product);
  await queryClient.invalidateQueries({ queryKey: [...productsKey, 'list'] });
  // Product counts per type and brand change with it.
  await queryClient.invalidateQueries({ queryKey: typesKey });
  await queryClient.invalidateQueries({ queryKey: brandsKey });
  return product;
}

export async function saveProduct(
  id: number | undefined,
  body: ProductInput,
  queryClient: QueryClient,
): Promise<ProductDetail> {
  const product = await requestJson<ProductDetail>(
    id === undefined ? '/api/admin/products' : `/api/admin/products/${id}`,
    {
      method: id === undefined ? 'POST' : 'PUT',
      body: JSON.stringify(body),
    },
  );
  return productChanged(product, queryClient);
}

export async function setProductStatus(id: number, status: ProductStatus, queryClient: QueryClient) {
  const product = await requestJson<ProductDetail>(`/api/admin/products/${id}/status`, {
    method: 'POST',
    body: JSON.stringify({ status }),
  });
  return productChanged(product, queryClient);
}

export async function duplicateProduct(id: number, queryClient: QueryClient): Promise<ProductDetail> {
  const product = await requestJson<ProductDetail>(`/api/admin/products/${id}/duplicate`, {
    method: 'POST',
    body: '{}',
  });
  return productChanged(product, queryClient);
}

type ListChange<Body> = { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: Body };

/** A change to the types or the brands: the answer is the whole list as it now is. */
async function changeList<View, Body>(
  key: readonly unknown[],
  base: string,
  change: ListChange<Body>,
  queryClient: QueryClient,
): Promise<View[]> {
  const list = await requestJson<View[]>(`${base}${change.path}`, {
    method: change.method,
    ...(change.body !== undefined ? { body: JSON.stringify(change.body) } : {}),
  });
  queryClient.setQueryData(key, list);
  await queryClient.invalidateQueries({ queryKey: productsKey });
  return list;
}

export function changeTypes(
  change: ListChange<ProductTypeInput | { direction: 'up' | 'down' }>,
  queryClient: QueryClient,
) {
  return changeList<ProductTypeView, typeof change.body>(typesKey, '/api/admin/product-types', change, queryClient);
}

export function changeBrands(change: ListChange<BrandInput | { direction: 'up' | 'down' }>, queryClient: QueryClient) {
  return changeList<BrandView, typeof change.body>(brandsKey, '/api/admin/brands', change, queryClient);
}
