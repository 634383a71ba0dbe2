import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { LabelOutcome, LabelQueue } from '../../../../../contract/admin/shipping.ts';
import { requestJson } from '../../../../lib/api.ts';
import { downloadFile } from '../../../../lib/download.ts';

/** The back office's label calls (docs/back-office.md#shipping-labels). */
const labelsKey = ['admin', 'labels'] as const;

export function labelQueueQueryOptions() {
  return queryOptions({
    queryKey: labelsKey,
    // Asked again each time the page is opened: the queue is changed from other pages (an order's
    // new address, a size's weight), whose features cannot reach this key to invalidate it.
    staleTime: 0,
    queryFn: ({ signal }) => requestJson<LabelQueue>('/api/admin/labels', { signal }),
  });
}

/** The chosen orders' labels as one PDF, in the list's order, downloaded; answers the file's name. */
export const downloadLabels = (orderIds: readonly number[]) =>
  downloadFile(`/api/admin/labels.pdf?orders=${orderIds.join(',')}`, 'labels.pdf');

/** Each chosen order's label followed by its packing slip, in the list's order, downloaded. */
export const downloadLabelsAndSlips = (orderIds: readonly number[]) =>
  downloadFile(`/api/admin/labels-and-slips.pdf?orders=${orderIds.join(',')}`, 'labels-and-slips.pdf');

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
