import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  VoucherDetail,
  VoucherInput,
  VoucherList,
  VoucherListQuery,
} from '../../../../../contract/admin/vouchers.ts';
import { requestJson } from '../../../../lib/api.ts';

const vouchersKey = ['admin', 'vouchers'] as const;

export function voucherSearchOf(query: VoucherListQuery): string {
  const search = new URLSearchParams();
  if (query.q) search.set('q', query.q);
  if (query.page && Number(query.page) > 1) search.set('page', String(query.page));
  return search.size ? `?${search}` : '';
}

export function voucherListQueryOptions(query: VoucherListQuery) {
  return queryOptions({
    queryKey: [...vouchersKey, 'list', query],
    queryFn: ({ signal }) => requestJson<VoucherList>(`/api/admin/vouchers${voucherSearchOf(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function voucherQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...vouchersKey, 'detail', id],
    queryFn: ({ signal }) => requestJson<VoucherDetail>(`/api/admin/vouchers/${id}`, { signal }),
  });
}

/** Creates a voucher (no id) or saves one; the answer is the voucher as it now is. */
export async function saveVoucher(
  id: number | undefined,
  voucher: VoucherInput,
  queryClient: QueryClient,
): Promise<VoucherDetail> {
  const saved = await requestJson<VoucherDetail>(id ? `/api/admin/vouchers/${id}` : '/api/admin/vouchers', {
    method: id ? 'PUT' : 'POST',
    body: JSON.stringify(voucher),
  });
  queryClient.setQueryData(voucherQueryOptions(saved.id).queryKey, saved);
  await queryClient.invalidateQueries({ queryKey: [...vouchersKey, 'list'] });
  return saved;
}
