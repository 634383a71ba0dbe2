import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { refundSchema, type OrderDetail, type RefundInput } from '../../../../contract/admin/orders.ts';
import { formatPence, poundsToPence } from '../../lib/format.ts';
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
type RefundForm = { amount: string; reason: string; restock: Record<string, string | number> };

export function RefundForm(props: {
  order: Pick<OrderDetail, 'lines' | 'total' | 'refundedTotal'> & Partial<Pick<OrderDetail, 'refundsThrough'>>;
  onSubmit: (refund: RefundInput) => Promise<boolean>;
}) {
  const { lines } = props.order;
  const throughProvider = props.order.refundsThrough === 'provider';
  const refundable = props.order.total - props.order.refundedTotal;
  const form = useForm<RefundForm>({
    resolver: zodResolver(refundFormSchema(refundable, lines)) as never,
    defaultValues: { amount: '', reason: '', restock: Object.fromEntries(lines.map((line) => [String(line.id), '0'])) },
  });
  const { errors, isSubmitting } = form.formState;
  // Money sent back through the provider cannot be taken back: the refund, as checked, waits for a
  // second yes (a recorded one moved no money, so it goes at once).
  const [toConfirm, setToConfirm] = useState<RefundInput | null>(null);

  async function send(refund: RefundInput) {
    setToConfirm(null);
    if (await props.onSubmit(refund)) form.reset();
  }

  const submit = form.handleSubmit(async (values) => {
    const restock = lines
      .map((line) => ({ lineId: line.id, quantity: Number(values.restock[String(line.id)] ?? 0) }))
      .filter((line) => line.quantity > 0);
    const refund = { amount: poundsToPence(values.amount) ?? 0, reason: values.reason.trim(), restock };
    if (throughProvider) setToConfirm(refund);
    else await send(refund);
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
              {...form.register(`restock.${line.id}`)}
            />
          ))}
        </fieldset>
      )}
      {toConfirm ? (
        <div role="alert" className="adm-confirm">
          <p>Send {formatPence(toConfirm.amount)} back to the customer? It cannot be undone.</p>
          <div className="adm-row">
            <button type="button" className="button adm-small" onClick={() => void send(toConfirm)}>
              Yes, refund {formatPence(toConfirm.amount)}
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
