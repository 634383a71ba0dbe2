import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AccountDetails, AccountOrder } from '../../../../contract/accounts.ts';
import { accountQueryKeys } from '../../../lib/account.ts';
import { requestJson } from '../../../lib/api.ts';

/** The signed-in customer's orders, newest first (My Account, Your Orders). */
export function accountOrdersQueryOptions() {
  return queryOptions({
    queryKey: accountQueryKeys.orders,
    queryFn: ({ signal }) => requestJson<AccountOrder[]>('/api/account/orders', { signal }),
  });
}

/** PUT /api/account; the account and the top bar's name are asked for again once saved. */
export async function saveAccount(details: AccountDetails, queryClient: QueryClient): Promise<void> {
  await requestJson('/api/account', { method: 'PUT', body: JSON.stringify(details) });
  await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account });
  await queryClient.invalidateQueries({ queryKey: accountQueryKeys.whoAmI });
}
