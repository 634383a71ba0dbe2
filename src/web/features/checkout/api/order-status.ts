import { queryOptions } from '@tanstack/react-query';
import type { OrderStatusAnswer } from '../../../../contract/payments.ts';
import { requestJson } from '../../../lib/api.ts';

/** The order's recorded payment state; asked only when there is an order code, and afresh each time. */
export function orderStatusQueryOptions(orderCode: string | null) {
  return queryOptions({
    queryKey: ['order-status', orderCode],
    enabled: Boolean(orderCode),
    queryFn: ({ signal }) =>
      requestJson<OrderStatusAnswer>(`/api/order-status/${encodeURIComponent(orderCode ?? '')}`, { signal }),
    staleTime: 0,
  });
}
