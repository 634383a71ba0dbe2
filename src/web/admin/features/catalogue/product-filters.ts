import { productListQuerySchema, type ProductListQuery } from '../../../../contract/admin/catalogue.ts';

/**
 * The product list's filters live in the URL's query string, so a list can be linked and comes back
 * with the back button. Each value is checked with the contract's own schema; one that is not a
 * valid filter is left out rather than failing the page.
 */
const keys = Object.keys(productListQuerySchema.shape) as Array<keyof ProductListQuery>;
const defaults: Partial<Record<keyof ProductListQuery, string>> = { page: '1', sort: 'newest', pageSize: '25' };

export function filtersFromSearch(params: URLSearchParams): ProductListQuery {
  const query: Record<string, unknown> = {};
  for (const key of keys) {
    const raw = params.get(key);
    if (raw === null || raw === '') continue;
    const parsed = productListQuerySchema.shape[key].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) query[key] = parsed.data;
  }
  return query as ProductListQuery;
}

/** "?status=draft&q=dhol", without empty values and without the defaults. */
export function searchOf(query: Partial<ProductListQuery>): string {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = query[key];
    if (value === undefined || value === '' || value === null || defaults[key] === String(value)) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}
