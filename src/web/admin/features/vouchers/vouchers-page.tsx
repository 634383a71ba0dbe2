import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Voucher, VoucherListQuery } from '../../../../contract/admin/vouchers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { Pager } from '../../ui/pager.tsx';
import { voucherListQueryOptions, voucherSearchOf } from './api/vouchers.ts';

/** "10%" or "£5.00", and from what spend. */
export function voucherValue(voucher: Pick<Voucher, 'kind' | 'amount'>): string {
  return voucher.kind === 'percent' ? `${voucher.amount}%` : formatPence(voucher.amount);
}

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
          {vouchers.data.vouchers.length === 0 ? (
            <p>No vouchers match.</p>
          ) : (
            <div className="adm-table-wrap">
              <table className="adm-table">
                <caption className="visually-hidden">Vouchers</caption>
                <thead>
                  <tr>
                    <th scope="col">Code</th>
                    <th scope="col">Value</th>
                    <th scope="col" className="adm-num">
                      Minimum spend
                    </th>
                    <th scope="col">Valid</th>
                    <th scope="col" className="adm-num">
                      Used
                    </th>
                    <th scope="col">Active</th>
                  </tr>
                </thead>
                <tbody>
                  {vouchers.data.vouchers.map((voucher) => (
                    <tr key={voucher.id}>
                      <td>
                        <Link to={`/vouchers/${voucher.id}`}>{voucher.code}</Link>
                      </td>
                      <td>{voucherValue(voucher)}</td>
                      <td className="adm-num">{formatPence(voucher.minSpend)}</td>
                      <td>
                        {voucher.validFrom} to {voucher.validTo}
                      </td>
                      <td className="adm-num">
                        {voucher.timesUsed}
                        {voucher.usageLimit !== null ? ` of ${voucher.usageLimit}` : ''}
                      </td>
                      <td>{voucher.active ? 'Yes' : 'No'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            label="Voucher pages"
            page={vouchers.data.page}
            pageSize={vouchers.data.pageSize}
            total={vouchers.data.total}
            onPage={(page) => setSearchParams(new URLSearchParams(voucherSearchOf({ ...query, page }).slice(1)))}
          />
        </>
      )}
    </AdminPage>
  );
}
