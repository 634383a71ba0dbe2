import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { LabelOutcome, LabelQueue } from '../../../../../contract/admin/shipping.ts';
import { requestJson } from '../../../../lib/api.ts';

/** The back office's label calls (docs/back-office.md#shipping-labels). */
const labelsKey = ['admin', 'labels'] as const;

export function labelQueueQueryOptions() {
  return queryOptions({
    queryKey: labelsKey,
    queryFn: ({ signal }) => requestJson<LabelQueue>('/api/admin/labels', { signal }),
  });
}

/** Where the chosen orders' labels are downloaded, in the list's order. */
export const labelsPdfHref = (orderIds: readonly number[]) => `/api/admin/labels.pdf?orders=${orderIds.join(',')}`;

/** Each chosen order's label followed by its packing slip, in the list's order. */
export const labelsAndSlipsPdfHref = (orderIds: readonly number[]) =>
  `/api/admin/labels-and-slips.pdf?orders=${orderIds.join(',')}`;

async function changed<T>(answer: Promise<T>, queryClient: QueryClient): Promise<T> {
  try {
    return await answer;
  } finally {
    await queryClient.invalidateQueries({ queryKey: labelsKey });
    // Dispatched orders leave the orders' lists and the dashboard's counts.
    await queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
  }
}

export const makeLabels = (orderIds: readonly number[], queryClient: QueryClient) =>
  changed(
    requestJson<{ outcomes: LabelOutcome[] }>('/api/admin/labels', {
      method: 'POST',
      body: JSON.stringify({ orderIds }),
    }),
    queryClient,
  );

export const dispatchWithLabels = (orderIds: readonly number[], queryClient: QueryClient) =>
  changed(
    requestJson<{ outcomes: LabelOutcome[] }>('/api/admin/labels/dispatch', {
      method: 'POST',
      body: JSON.stringify({ orderIds }),
    }),
    queryClient,
  );

export const cancelLabel = (orderId: number, queryClient: QueryClient) =>
  changed(requestJson<LabelOutcome>(`/api/admin/labels/${orderId}/cancel`, { method: 'POST' }), queryClient);
