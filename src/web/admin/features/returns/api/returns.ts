import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AdminReturn, ReceiveReturn, RefundReturn, ReturnQueue } from '../../../../../contract/returns.ts';
import { requestJson } from '../../../../lib/api.ts';

const returnsKey = ['admin', 'returns'] as const;

/** The queue: open returns (requested, authorised, received) by refund deadline, or closed ones. */
export function returnQueueQueryOptions(show: 'open' | 'closed') {
  return queryOptions({
    queryKey: [...returnsKey, show],
    queryFn: ({ signal }) => requestJson<ReturnQueue>(`/api/admin/returns?show=${show}`, { signal }),
  });
}

export type ReturnAction =
  | { action: 'authorise' }
  | { action: 'refuse'; body: { reason: string } }
  | { action: 'receive'; body: ReceiveReturn }
  | { action: 'refund'; body: RefundReturn };

/** Moves a return on; the queue is asked again. */
export async function actOnReturn(id: number, act: ReturnAction, queryClient: QueryClient): Promise<AdminReturn> {
  const answer = await requestJson<AdminReturn>(`/api/admin/returns/${id}/${act.action}`, {
    method: 'POST',
    body: JSON.stringify('body' in act ? act.body : {}),
  });
  await queryClient.invalidateQueries({ queryKey: returnsKey });
  return answer;
}

export const returnPhotoHref = (id: number, position: number) => `/api/admin/returns/${id}/photos/${position}`;
