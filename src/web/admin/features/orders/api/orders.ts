import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  DeliveryDetailsInput,
  FulfilmentInput,
  OrderDetail,
  OrderList,
  OrderListQuery,
  RefundInput,
} from '../../../../../contract/admin/orders.ts';
import { requestJson } from '../../../../lib/api.ts';
import { searchOf } from '../order-filters.ts';
import { orderDocumentsKey } from './documents.ts';

const ordersKey = ['admin', 'orders'] as const;

/** One page of the order list for these filters (the query string is the URL's). */
export function orderListQueryOptions(query: OrderListQuery) {
  return queryOptions({
    queryKey: [...ordersKey, 'list', query],
    queryFn: ({ signal }) => requestJson<OrderList>(`/api/admin/orders${searchOf(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function orderQueryOptions(orderNumber: number) {
  return queryOptions({
    queryKey: [...ordersKey, 'detail', orderNumber],
    queryFn: ({ signal }) => requestJson<OrderDetail>(`/api/admin/orders/${orderNumber}`, { signal }),
  });
}

/** Packing slips for every order waiting to be dispatched, a page each, the oldest first. */
export const packingSlipsHref = '/api/admin/packing-slips';

/** The accountant's CSV of the same filters (every page, not only the one shown). */
export function ordersCsvHref(query: OrderListQuery): string {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  return `/api/admin/orders.csv${searchOf(filters)}`;
}

export type OrderAction =
  | { action: 'dispatch'; body: FulfilmentInput }
  | { action: 'deliver' }
  | { action: 'ready-for-collection' }
  | { action: 'collect' }
  | { action: 'cancel'; body: { reason?: string } }
  | { action: 'refund'; body: RefundInput }
  | { action: 'notes'; body: { note: string } }
  | { action: 'delivery-details'; body: DeliveryDetailsInput }
  | { action: 'resend-confirmation' };

/** Moves the order through the lifecycle; the answer is the order as it now is, shown at once. */
export async function actOnOrder(
  orderNumber: number,
  act: OrderAction,
  queryClient: QueryClient,
): Promise<OrderDetail> {
  const order = await requestJson<OrderDetail>(`/api/admin/orders/${orderNumber}/${act.action}`, {
    // New delivery details replace the old: the one change that is a PUT.
    method: act.action === 'delivery-details' ? 'PUT' : 'POST',
    body: JSON.stringify('body' in act ? act.body : {}),
  });
  queryClient.setQueryData(orderQueryOptions(orderNumber).queryKey, order);
  // A refund (or a cancellation that refunds) issues a credit note: the documents are asked again.
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: [...ordersKey, 'list'] }),
    queryClient.invalidateQueries({ queryKey: orderDocumentsKey(orderNumber) }),
  ]);
  return order;
}
