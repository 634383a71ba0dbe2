import { orderListQuerySchema, type OrderListQuery } from '../../../../contract/admin/orders.ts';

/**
 * The order list's filters live in the URL's query string, so a list can be linked and comes back
 * with the back button. Each value is checked with the contract's own schema; one that is not a
 * valid filter is left out rather than failing the page.
 */
const keys = Object.keys(orderListQuerySchema.shape) as Array<keyof OrderListQuery>;

export function filtersFromSearch(params: URLSearchParams): OrderListQuery {
  const query: Record<string, unknown> = {};
  for (const key of keys) {
    const raw = params.get(key);
    if (raw === null || raw === '') continue;
    const parsed = orderListQuerySchema.shape[key].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) query[key] = parsed.data;
  }
  return query as OrderListQuery;
}

/** "?status=paid&q=B70", without empty values and without the defaults (page 1, newest first). */
export function searchOf(query: Partial<OrderListQuery>): string {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = query[key];
    if (value === undefined || value === '' || value === null) continue;
    if ((key === 'page' && Number(value) === 1) || (key === 'sort' && value === 'newest')) continue;
    if (key === 'pageSize' && Number(value) === 25) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}
