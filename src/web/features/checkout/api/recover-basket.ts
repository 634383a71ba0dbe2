import { queryOptions } from '@tanstack/react-query';
import type { PricedBasket } from '../../../../contract/basket.ts';
import { requestJson } from '../../../lib/api.ts';

/** An unpaid order, by the code in its recovery link, priced as a basket; asked afresh each visit. */
export function recoverBasketQueryOptions(orderCode: string) {
  return queryOptions({
    queryKey: ['recover-basket', orderCode],
    queryFn: ({ signal }) =>
      requestJson<PricedBasket>(`/api/recover-basket/${encodeURIComponent(orderCode)}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}
