import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { refundSchema, type OrderDetail, type RefundInput } from '../../../../contract/admin/orders.ts';
import { goodsLessVoucherShare } from '../../../../contract/money.ts';
import { providerLabel } from '../../../../contract/payments.ts';
import { formatPence, penceToDecimal, poundsToPence } from '../../lib/format.ts';
import { useLeaveGuard } from '../../lib/leave-guard.tsx';
import { Field } from '../../ui/field.tsx';
import { unitCount } from './unit-count.ts';

/**
 * The form staff fill in: the amount in pounds as typed, and how many units of each line go back on
 * the shelf. It becomes the contract's refund (integer pence, restock lines) on submit.
 */
function refundFormSchema(refundable: number, lines: OrderDetail['lines']) {
  return z.object({
    amount: z
      .string()
      .refine((typed) => poundsToPence(typed) !== undefined, 'Please enter an amount in pounds, such as 12.50')
      .refine((typed) => (poundsToPence(typed) ?? 0) >= 1, 'The amount must be at least £0.01')
      .refine(
        (typed) => (poundsToPence(typed) ?? 0) <= refundable,
        `At most ${formatPence(refundable)} is left to refund`,
      ),
    reason: refundSchema.shape.reason,
    restock: z.object(
      Object.fromEntries(
        lines.map((line) => [
          String(line.id),
          unitCount(line.quantity - line.restocked, `At most ${line.quantity - line.restocked} can go back`),
        ]),
      ),
    ),
  });
}
type Restock = Array<{ lineId: number; quantity: number }>;
type RefundForm = { amount: string; reason: string; restock: Record<string, string | number> };

export function RefundForm(props: {
  order: Pick<OrderDetail, 'lines' | 'total' | 'refundedTotal' | 'itemsTotal' | 'discount' | 'provider'> &
    Partial<Pick<OrderDetail, 'refundsThrough'>>;
  onSubmit: (refund: RefundInput) => Promise<boolean>;
}) {
  const { lines } = props.order;
  const throughProvider = props.order.refundsThrough === 'provider';
  const refundable = props.order.total - props.order.refundedTotal;
  const providerName = props.order.provider ? providerLabel(props.order.provider) : 'the provider';
  const form = useForm<RefundForm>({
    resolver: zodResolver(refundFormSchema(refundable, lines)) as never,
    defaultValues: { amount: '', reason: '', restock: Object.fromEntries(lines.map((line) => [String(line.id), '0'])) },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useLeaveGuard(isDirty);
  // A refund waits for a second yes that restates it: money sent through the provider cannot be
  // taken back, and one recorded by hand must match what was sent in the provider's own pages.
  const [toConfirm, setToConfirm] = useState<(RefundInput & { restock: Restock }) | null>(null);
  // Until staff type an amount of their own, the units chosen to restock propose it (a proposal is
  // set without marking the field dirty; what staff type, until they clear it, is dirty).
  function proposeAmount() {
    if (form.getFieldState('amount').isDirty) return;
    const restock = form.getValues('restock');
    const goods = lines.reduce((sum, line) => sum + line.unitPrice * (Number(restock[String(line.id)]) || 0), 0);
    // The voucher's share runs on from the goods refunds put back already (voucherShareOf).
    const before = lines.reduce((sum, line) => sum + line.unitPrice * line.restocked, 0);
    const proposed = Math.min(goodsLessVoucherShare(goods, props.order, before), refundable);
    form.setValue('amount', proposed > 0 ? penceToDecimal(proposed) : '');
  }

  async function send(refund: RefundInput) {
    setToConfirm(null);
    if (await props.onSubmit(refund)) form.reset();
  }

  const submit = form.handleSubmit((values) => {
    const restock = lines
      .map((line) => ({ lineId: line.id, quantity: Number(values.restock[String(line.id)] ?? 0) }))
      .filter((line) => line.quantity > 0);
    setToConfirm({ amount: poundsToPence(values.amount) ?? 0, reason: values.reason.trim(), restock });
  });

  return (
    <form
      noValidate
      onSubmit={submit}
      // A change after the question was asked asks it again, of what is now typed.
      onChange={() => setToConfirm(null)}
      aria-label={throughProvider ? 'Refund through the provider' : 'Record a refund'}
      className="adm-form"
    >
      <p className="adm-hint">
        Up to {formatPence(refundable)} is left to refund.{' '}
        {throughProvider
          ? 'This refund is sent through the payment provider, which pays the customer back.'
          : 'The provider that took this payment cannot refund from the shop: make the refund in its own pages, then record it here.'}
      </p>
      <Field
        id="refund-amount"
        label="Amount (£)"
        inputMode="decimal"
        autoComplete="off"
        error={errors.amount?.message}
        {...form.register('amount')}
      />
      <Field id="refund-reason" label="Reason" error={errors.reason?.message} {...form.register('reason')} />
      {lines.length > 0 && (
        <fieldset>
          <legend>Put back in stock</legend>
          {lines.map((line) => (
            <Field
              key={line.id}
              id={`refund-restock-${line.id}`}
              type="number"
              min={0}
              max={line.quantity - line.restocked}
              label={`${line.title} (${line.sizeName}): units to restock`}
              hint={`${line.quantity} sold${line.restocked ? `, ${line.restocked} restocked already` : ''}`}
              error={errors.restock?.[String(line.id)]?.message}
              {...form.register(`restock.${line.id}`, { onChange: proposeAmount })}
            />
          ))}
        </fieldset>
      )}
      {toConfirm ? (
        <div role="alert" className="adm-confirm">
          <p>
            {throughProvider
              ? `Send ${formatPence(toConfirm.amount)} back to the customer through ${providerName}, to the way they paid? It cannot be undone.`
              : `Record ${formatPence(toConfirm.amount)} as refunded? It moves no money: make the refund in ${providerName}’s own pages.`}
          </p>
          {toConfirm.restock.length > 0 && (
            <p>
              Put back in stock:{' '}
              {toConfirm.restock
                .map(({ lineId, quantity }) => {
                  const line = lines.find((one) => one.id === lineId);
                  return `${quantity} × ${line?.title ?? ''} (${line?.sizeName ?? ''})`;
                })
                .join(', ')}
              .
            </p>
          )}
          <div className="adm-row">
            <button type="button" className="button adm-small" onClick={() => void send(toConfirm)}>
              {throughProvider ? 'Yes, refund' : 'Yes, record'} {formatPence(toConfirm.amount)}
            </button>
            <button type="button" className="button button-secondary adm-small" onClick={() => setToConfirm(null)}>
              Change it
            </button>
          </div>
        </div>
      ) : (
        <button type="submit" className="button adm-small" disabled={isSubmitting}>
          {throughProvider ? 'Refund through the provider' : 'Record refund'}
        </button>
      )}
    </form>
  );
}
