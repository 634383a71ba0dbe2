import { queryOptions } from '@tanstack/react-query';
import type {
  CancellationOptions,
  CancellationRequest,
  CancellationResult,
} from '../../../../contract/cancellation.ts';
import { requestJson } from '../../../lib/api.ts';

/** The order page's key is a secret: it goes in the path only (redacted from logs), never in a query key's text elsewhere. */
const path = (orderKey: string) => `/api/order-page/${encodeURIComponent(orderKey)}/cancellation`;

export const cancellationQueryKey = (orderKey: string) => ['order-page', orderKey, 'cancellation'] as const;

/** What may still be cancelled on the order, and what each choice would refund. */
export function cancellationQueryOptions(orderKey: string) {
  return queryOptions({
    queryKey: cancellationQueryKey(orderKey),
    queryFn: ({ signal }) => requestJson<CancellationOptions>(path(orderKey), { signal }),
  });
}

/** Cancels the whole order or some units: the refund goes back at once (or is on its way). */
export function cancelOrder(orderKey: string, request: CancellationRequest): Promise<CancellationResult> {
  return requestJson<CancellationResult>(path(orderKey), { method: 'POST', body: JSON.stringify(request) });
}
