import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  StockAdjustmentInput,
  StockHistory,
  StockList,
  StockListQuery,
  StockRow,
} from '../../../../../contract/admin/stock.ts';
import { requestJson } from '../../../../lib/api.ts';

const stockKey = ['admin', 'stock'] as const;

/** The query string of a stock list: only what differs from the defaults. */
export function stockSearchOf(query: StockListQuery): string {
  const search = new URLSearchParams();
  if (query.q) search.set('q', query.q);
  if (query.low === 'true') search.set('low', 'true');
  if (query.page && Number(query.page) > 1) search.set('page', String(query.page));
  return search.size ? `?${search}` : '';
}

export function stockListQueryOptions(query: StockListQuery) {
  return queryOptions({
    queryKey: [...stockKey, 'list', query],
    queryFn: ({ signal }) => requestJson<StockList>(`/api/admin/stock${stockSearchOf(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function stockHistoryQueryOptions(stockId: number) {
  return queryOptions({
    queryKey: [...stockKey, 'history', stockId],
    queryFn: ({ signal }) => requestJson<StockHistory>(`/api/admin/stock/${stockId}`, { signal }),
  });
}

/** A delta with its reason; the lists and the size's history show the level it left. */
export async function adjustStock(
  stockId: number,
  adjustment: StockAdjustmentInput,
  queryClient: QueryClient,
): Promise<StockRow> {
  const row = await requestJson<StockRow>(`/api/admin/stock/${stockId}/adjustments`, {
    method: 'POST',
    body: JSON.stringify(adjustment),
  });
  await queryClient.invalidateQueries({ queryKey: stockKey });
  return row;
}

export async function setLowStockThreshold(threshold: number, queryClient: QueryClient): Promise<void> {
  await requestJson('/api/admin/settings/low-stock-threshold', { method: 'PUT', body: JSON.stringify({ threshold }) });
  await queryClient.invalidateQueries({ queryKey: stockKey });
  await queryClient.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
}
