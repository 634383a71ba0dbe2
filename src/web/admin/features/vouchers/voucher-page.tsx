import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { Link, useNavigate, useParams } from 'react-router';
import {
  VOUCHER_YEARS,
  voucherInputSchema,
  type Voucher,
  type VoucherInput,
} from '../../../../contract/admin/vouchers.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { contractResolver } from '../../lib/contract-resolver.ts';
import { useLeaveGuard } from '../../lib/leave-guard.tsx';
import { formatDateTime, formatPence, penceToDecimal, poundsToPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { saveVoucher, voucherQueryOptions } from './api/vouchers.ts';
import { paymentStatusLabels } from '../../../../contract/order-status.ts';
import { TableBox } from '../../ui/table-box.tsx';
import { plural } from '../../../../contract/words.ts';

/** A new voucher (/vouchers/new), or one voucher: its settings and the orders that used it. */
export default function VoucherPage() {
  const { id } = useParams();
  const voucherId = id === 'new' ? undefined : Number(id);
  const voucher = useQuery({ ...voucherQueryOptions(voucherId ?? 0), enabled: voucherId !== undefined });
  const title = voucherId === undefined ? 'New voucher' : voucher.data ? `Voucher ${voucher.data.code}` : 'Voucher';
  return (
    <AdminPage title={title}>
      <p>
        <Link to="/vouchers">All vouchers</Link>
      </p>
      <ErrorAlert error={voucher.error} />
      {voucherId === undefined && <VoucherForm />}
      {voucher.data && (
        <>
          <VoucherForm key={JSON.stringify(voucher.data)} voucher={voucher.data} />
          <h2>Uses</h2>
          <p>
            Used {plural(voucher.data.timesUsed, 'time')} by orders holding it now;{' '}
            {voucher.data.useCount === 1 ? '1 order names' : `${voucher.data.useCount} orders name`} it in all (expired
            and cancelled ones too).
          </p>
          {voucher.data.uses.length > 0 && (
            <TableBox label={`Orders that used ${voucher.data.code}`}>
              <table className="adm-table">
                <caption className="visually-hidden">Orders that used {voucher.data.code}</caption>
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Payment</th>
                    <th scope="col">Customer</th>
                    <th scope="col" className="adm-num">
                      Discount
                    </th>
                    <th scope="col" className="adm-num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {voucher.data.uses.map((order) => (
                    <tr key={order.id}>
                      <td>
                        <Link to={`/orders/${order.orderNumber}`}>{order.orderNumber}</Link>
                      </td>
                      <td>{formatDateTime(order.createdAt)}</td>
                      <td>{paymentStatusLabels[order.payment]}</td>
                      <td>{order.customerName}</td>
                      <td className="adm-num">{formatPence(order.discount)}</td>
                      <td className="adm-num">{formatPence(order.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
        </>
      )}
    </AdminPage>
  );
}

/** The form as typed: a fixed amount and the minimum spend in pounds, a percentage as a number. */
interface VoucherForm {
  code: string;
  kind: 'percent' | 'fixed';
  amount: string;
  minSpend: string;
  validFrom: string;
  validTo: string;
  usageLimit: string;
  active: boolean;
}

/**
 * The typed form's own checks, read before the contract's: the payload is pence, but staff type
 * pounds, so a word where an amount belongs is named in pounds here, not in the contract's pence.
 */
const typedVoucher = z
  .object({ kind: z.string(), amount: z.string(), minSpend: z.string() })
  .superRefine((typed, ctx) => {
    if (typed.minSpend.trim() !== '' && poundsToPence(typed.minSpend) === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['minSpend'],
        message: 'Please enter the minimum spend in pounds, such as 25.00 (0 for none)',
      });
    if (typed.kind === 'fixed' && poundsToPence(typed.amount) === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'Please enter the amount off in pounds, such as 5.00',
      });
  });

function toPayload(form: VoucherForm): VoucherInput {
  const amount =
    form.kind === 'fixed'
      ? poundsToPence(form.amount)
      : /^\d+$/.test(form.amount.trim())
        ? Number(form.amount)
        : undefined;
  const limit = form.usageLimit.trim();
  return {
    ...form,
    amount: amount as number,
    minSpend: (form.minSpend.trim() === '' ? 0 : poundsToPence(form.minSpend)) as number,
    usageLimit: limit === '' ? null : /^\d+$/.test(limit) ? Number(limit) : (Number.NaN as number),
  };
}

function formOf(voucher: Voucher | undefined): VoucherForm {
  const today = new Date().toISOString().slice(0, 10);
  if (!voucher) {
    return {
      code: '',
      kind: 'percent',
      amount: '',
      minSpend: '0.00',
      validFrom: today,
      validTo: today,
      usageLimit: '',
      active: true,
    };
  }
  return {
    code: voucher.code,
    kind: voucher.kind,
    amount: voucher.kind === 'fixed' ? penceToDecimal(voucher.amount) : String(voucher.amount),
    minSpend: penceToDecimal(voucher.minSpend),
    validFrom: voucher.validFrom,
    validTo: voucher.validTo,
    usageLimit: voucher.usageLimit === null ? '' : String(voucher.usageLimit),
    active: voucher.active,
  };
}

function VoucherForm({ voucher }: { voucher?: Voucher }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<VoucherForm>({
    resolver: contractResolver<VoucherForm, typeof voucherInputSchema>(voucherInputSchema, toPayload, {
      typed: typedVoucher,
    }),
    defaultValues: formOf(voucher),
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const leaving = useLeaveGuard(isDirty);
  const kind = useWatch({ control: form.control, name: 'kind' });
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    setSaved(false);
    try {
      const answer = await saveVoucher(voucher?.id, toPayload(values), queryClient);
      form.reset(values);
      leaving.release();
      if (!voucher) await navigate(`/vouchers/${answer.id}`);
      else setSaved(true);
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <form noValidate aria-label={voucher ? 'Edit voucher' : 'New voucher'} className="adm-form" onSubmit={submit}>
      <ErrorAlert error={problem} />
      <Field
        id="voucher-code"
        label="Code"
        hint="Letters, digits and dashes; shoppers may type it in any case."
        autoComplete="off"
        error={errors.code?.message}
        {...form.register('code')}
      />
      <SelectField id="voucher-kind" label="Kind" error={errors.kind?.message} {...form.register('kind')}>
        <option value="percent">Percentage off</option>
        <option value="fixed">Amount off</option>
      </SelectField>
      <Field
        id="voucher-amount"
        label={kind === 'fixed' ? 'Amount off (£)' : 'Percentage off'}
        inputMode="decimal"
        autoComplete="off"
        error={errors.amount?.message}
        {...form.register('amount')}
      />
      <Field
        id="voucher-min-spend"
        label="Minimum spend (£)"
        inputMode="decimal"
        autoComplete="off"
        error={errors.minSpend?.message}
        {...form.register('minSpend')}
      />
      <Field
        id="voucher-from"
        type="date"
        min={`${VOUCHER_YEARS.first}-01-01`}
        max={`${VOUCHER_YEARS.last}-12-31`}
        label="First day"
        error={errors.validFrom?.message}
        {...form.register('validFrom')}
      />
      <Field
        id="voucher-to"
        type="date"
        min={`${VOUCHER_YEARS.first}-01-01`}
        max={`${VOUCHER_YEARS.last}-12-31`}
        label="Last day"
        error={errors.validTo?.message}
        {...form.register('validTo')}
      />
      <Field
        id="voucher-limit"
        label="Usage limit"
        hint="How many orders may use it in all; blank for no limit."
        inputMode="numeric"
        autoComplete="off"
        error={errors.usageLimit?.message}
        {...form.register('usageLimit')}
      />
      <div className="adm-field adm-check">
        <input id="voucher-active" type="checkbox" {...form.register('active')} />
        <label htmlFor="voucher-active">Active</label>
      </div>
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        {voucher ? 'Save voucher' : 'Create voucher'}
      </button>
      {saved && <p role="status">Saved.</p>}
    </form>
  );
}
