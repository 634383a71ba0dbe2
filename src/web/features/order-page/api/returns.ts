import { queryOptions } from '@tanstack/react-query';
import type { OrderReturns, ReturnReason, ShopperReturn } from '../../../../contract/returns.ts';
import { requestJson } from '../../../lib/api.ts';

/** GET /api/order-page/{key}/returns: what may be returned now, and the order's returns. */
export function orderReturnsQueryOptions(orderKey: string) {
  return queryOptions({
    queryKey: ['order-page', orderKey, 'returns'],
    queryFn: ({ signal }) =>
      requestJson<OrderReturns>(`/api/order-page/${encodeURIComponent(orderKey)}/returns`, { signal }),
  });
}

/** POST a return request: multipart, so photos of damage go with it. */
export function requestReturn(
  orderKey: string,
  request: { reason: ReturnReason; note: string; lines: Array<{ orderLineId: number; quantity: number }> },
  photos: readonly File[],
): Promise<ShopperReturn> {
  const body = new FormData();
  body.set('reason', request.reason);
  body.set('note', request.note);
  body.set('lines', JSON.stringify(request.lines));
  for (const photo of photos) body.append('photo', photo);
  return requestJson<ShopperReturn>(`/api/order-page/${encodeURIComponent(orderKey)}/returns`, {
    method: 'POST',
    body,
  });
}
