import { queryOptions } from '@tanstack/react-query';
import type { OrderDocuments } from '../../../../../contract/admin/documents.ts';
import { requestJson } from '../../../../lib/api.ts';

/** The order's documents sit beside its detail: a refund made on its page issues a credit note. */
export function orderDocumentsKey(orderNumber: number) {
  return ['admin', 'orders', 'documents', orderNumber] as const;
}

/** An order's invoice (once paid) and its credit notes, each with its PDF's address. */
export function orderDocumentsQueryOptions(orderNumber: number) {
  return queryOptions({
    queryKey: orderDocumentsKey(orderNumber),
    queryFn: ({ signal }) => requestJson<OrderDocuments>(`/api/admin/orders/${orderNumber}/documents`, { signal }),
  });
}
