import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  CustomerDetail,
  CustomerList,
  CustomerListQuery,
  CustomerRecord,
} from '../../../../../contract/admin/customers.ts';
import { requestJson } from '../../../../lib/api.ts';

const customersKey = ['admin', 'customers'] as const;

export function customerListQueryOptions(query: CustomerListQuery) {
  const search = new URLSearchParams();
  if (query.q) search.set('q', query.q);
  if (query.sort && query.sort !== 'recent') search.set('sort', query.sort);
  if (query.page && query.page !== 1) search.set('page', String(query.page));
  return queryOptions({
    queryKey: [...customersKey, 'list', query],
    queryFn: ({ signal }) =>
      requestJson<CustomerList>(`/api/admin/customers${search.size ? `?${search}` : ''}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function customerQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...customersKey, 'detail', id],
    queryFn: ({ signal }) => requestJson<CustomerDetail>(`/api/admin/customers/${id}`, { signal }),
  });
}

/** A customer, guest or registered, by the reference the list gives (no e-mail address in the path). */
export function customerRecordQueryOptions(ref: string) {
  return queryOptions({
    queryKey: [...customersKey, 'record', ref],
    queryFn: ({ signal }) =>
      requestJson<CustomerRecord>(`/api/admin/customers/ref/${encodeURIComponent(ref)}`, { signal }),
  });
}

/** The customer's data as JSON, downloaded by the browser (UK GDPR right of access). */
export const customerExportHref = (id: number) => `/api/admin/customers/${id}/export`;

/** Erasure for good (UK GDPR): the e-mail typed again confirms it. The answer is the erased record. */
export async function eraseCustomer(id: number, confirmEmail: string, queryClient: QueryClient): Promise<void> {
  const customer = await requestJson<CustomerDetail>(`/api/admin/customers/${id}/erase`, {
    method: 'POST',
    body: JSON.stringify({ confirmEmail }),
  });
  queryClient.setQueryData(customerQueryOptions(id).queryKey, customer);
  await queryClient.invalidateQueries({ queryKey: [...customersKey, 'list'] });
  await queryClient.invalidateQueries({ queryKey: [...customersKey, 'record'] });
}
