import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Voucher, VoucherListQuery } from '../../../../contract/admin/vouchers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatPence } from '../../lib/format.ts';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { voucherListQueryOptions, voucherSearchOf } from './api/vouchers.ts';

/** "10%" or "£5.00", and from what spend. */
export function voucherValue(voucher: Pick<Voucher, 'kind' | 'amount'>): string {
  return voucher.kind === 'percent' ? `${voucher.amount}%` : formatPence(voucher.amount);
}

/**
 * What a voucher does at checkout today, in the order the basket refuses it: switched off, outside
 * its days (both included, UTC days as stored), or used as often as its limit allows.
 */
export function voucherState(
  voucher: Pick<Voucher, 'active' | 'validFrom' | 'validTo' | 'usageLimit' | 'timesUsed'>,
  today: string,
): 'Switched off' | 'Not started' | 'Expired' | 'Used up' | 'Active' {
  if (!voucher.active) return 'Switched off';
  if (today < voucher.validFrom) return 'Not started';
  if (today > voucher.validTo) return 'Expired';
  if (voucher.usageLimit !== null && voucher.timesUsed >= voucher.usageLimit) return 'Used up';
  return 'Active';
}

const helper = dataColumns<Voucher>();
const columns = helper.columns([
  helper.accessor('code', {
    header: 'Code',
    cell: (info) => <Link to={`/vouchers/${info.row.original.id}`}>{info.getValue()}</Link>,
  }),
  helper.display({ id: 'value', header: 'Value', cell: (info) => voucherValue(info.row.original) }),
  helper.accessor('minSpend', {
    header: 'Minimum spend',
    meta: { numeric: true },
    cell: (info) => formatPence(info.getValue()),
  }),
  helper.display({
    id: 'valid',
    header: 'Valid',
    cell: ({ row: { original: voucher } }) => `${voucher.validFrom} to ${voucher.validTo}`,
  }),
  helper.accessor('timesUsed', {
    header: 'Used',
    meta: { numeric: true },
    cell: ({ row: { original: voucher } }) =>
      `${voucher.timesUsed}${voucher.usageLimit !== null ? ` of ${voucher.usageLimit}` : ''}`,
  }),
  helper.display({
    id: 'state',
    header: 'State',
    cell: (info) => voucherState(info.row.original, new Date().toISOString().slice(0, 10)),
  }),
]);

/** Vouchers, newest first, found by part of their code. */
export default function VouchersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query: VoucherListQuery = {
    q: searchParams.get('q') ?? undefined,
    page: Number(searchParams.get('page') ?? 1) || 1,
  };
  const vouchers = useQuery(voucherListQueryOptions(query));

  function find(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    setSearchParams(new URLSearchParams(voucherSearchOf({ q: q || undefined }).slice(1)));
  }

  return (
    <AdminPage
      title="Vouchers"
      actions={
        <Link className="button adm-small" to="/vouchers/new">
          New voucher
        </Link>
      }
    >
      <form key={query.q ?? ''} className="adm-filters" role="search" aria-label="Find vouchers" onSubmit={find}>
        <Field
          id="vouchers-q"
          name="q"
          type="search"
          label="Code"
          hint="Part of a code, any case"
          defaultValue={query.q ?? ''}
        />
        <div className="adm-row adm-field">
          <button type="submit" className="button adm-small">
            Find vouchers
          </button>
        </div>
      </form>
      <ErrorAlert error={vouchers.error} />
      {vouchers.data && (
        <>
          <DataTable
            caption="Vouchers"
            columns={columns}
            rows={vouchers.data.vouchers}
            empty="No vouchers match."
            pager={{
              label: 'Voucher pages',
              list: vouchers.data,
              onPage: (page) => setSearchParams(new URLSearchParams(voucherSearchOf({ ...query, page }).slice(1))),
            }}
          />
        </>
      )}
    </AdminPage>
  );
}
