import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import {
  cancellationRefund,
  type CancellationOptions,
  type CancellationResult,
} from '../../../contract/cancellation.ts';
import { formatPence } from '../../../contract/money.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { cancellationQueryKey, cancellationQueryOptions, cancelOrder } from './api/cancellation.ts';
import styles from './order-page.module.css';

/**
 * Cancelling before dispatch on the customer's order page (docs/rules.md#cancelling-before-dispatch):
 * the whole order or chosen units, then once more with the refund restated ("Cancel and refund
 * £X" / "Keep my order"), then the result or why not. Focus moves to each step's heading, and the
 * outcome is announced in a live region.
 */
export function CancelSection({ orderKey, onChanged }: { orderKey: string; onChanged?: () => void }) {
  const query = useQuery(cancellationQueryOptions(orderKey));
  const headingId = useId();
  return (
    <section className="cancel-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Cancel your order</h2>
      {query.isPending ? (
        <p>Loading what can still be cancelled…</p>
      ) : query.isError ? (
        <p role="alert">What can be cancelled could not be loaded. Please reload the page.</p>
      ) : (
        <CancelSteps orderKey={orderKey} options={query.data} onChanged={onChanged} />
      )}
    </section>
  );
}

type Step =
  | { name: 'choose' }
  | { name: 'confirm'; whole: boolean; units: Record<number, number>; amount: number }
  | { name: 'done'; result: CancellationResult }
  | { name: 'refused'; message: string };

function CancelSteps({
  orderKey,
  options,
  onChanged,
}: {
  orderKey: string;
  options: CancellationOptions;
  onChanged: (() => void) | undefined;
}) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ name: 'choose' });
  // Nothing chosen for the shopper while the whole order may go: one tap must not head for it.
  const [choice, setChoice] = useState<'whole' | 'some' | null>(options.wholeOrderRefund === null ? 'some' : null);
  const [units, setUnits] = useState<Record<number, number>>({});
  const [choiceError, setChoiceError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const focusRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();

  // Each step's heading takes the focus, so a screen reader hears where the shopper is now.
  useEffect(() => {
    if (step.name !== 'choose') focusRef.current?.focus();
  }, [step]);

  const announcement = step.name === 'done' ? step.result.message : step.name === 'refused' ? step.message : '';
  const liveRegion = (
    <p className="visually-hidden" aria-live="polite" role="status">
      {announcement}
    </p>
  );

  if (step.name === 'done')
    return (
      <div>
        {liveRegion}
        <h3 ref={focusRef} tabIndex={-1}>
          {step.result.whole ? 'Your order is cancelled' : 'Items cancelled'}
        </h3>
        <p>{step.result.message}</p>
        <ul>
          {step.result.cancelled.map((line) => (
            <li key={line.lineId}>
              {line.title} ({line.sizeName}): {line.quantity} cancelled
            </li>
          ))}
        </ul>
      </div>
    );

  if (!options.cancellable)
    return (
      <div>
        {liveRegion}
        {step.name === 'refused' && (
          <h3 ref={focusRef} tabIndex={-1}>
            Your order could not be cancelled
          </h3>
        )}
        <p>{step.name === 'refused' ? step.message : options.notCancellable}</p>
      </div>
    );

  const lines = options.lines.filter((line) => line.cancellableUnits > 0);

  if (step.name === 'confirm') {
    const chosen = lines.filter((line) => (step.units[line.lineId] ?? 0) > 0);
    const confirm = async () => {
      setSending(true);
      try {
        const result = await cancelOrder(
          orderKey,
          step.whole && choice === 'whole'
            ? { whole: true }
            : { lines: chosen.map((line) => ({ lineId: line.lineId, quantity: step.units[line.lineId]! })) },
        );
        setStep({ name: 'done', result });
        onChanged?.();
      } catch (error) {
        setStep({
          name: 'refused',
          message:
            error instanceof ApiRequestError && error.serverMessage
              ? error.serverMessage
              : 'Your order could not be cancelled just now. Please try again, or contact us.',
        });
      } finally {
        setSending(false);
        await queryClient.invalidateQueries({ queryKey: cancellationQueryKey(orderKey) });
      }
    };
    return (
      <div>
        {liveRegion}
        <h3 ref={focusRef} tabIndex={-1}>
          {step.whole ? 'Cancel the whole order?' : 'Cancel these items?'}
        </h3>
        {!step.whole && (
          <ul>
            {chosen.map((line) => (
              <li key={line.lineId}>
                {line.title} ({line.sizeName}): {step.units[line.lineId]} to cancel
              </li>
            ))}
          </ul>
        )}
        <p>
          We will refund {formatPence(step.amount)} {options.refundsTo}
          {step.whole ? ', including the delivery charge' : ''}. This cannot be undone.
        </p>
        <button type="button" className="button" disabled={sending} onClick={() => void confirm()}>
          Cancel and refund {formatPence(step.amount)}
        </button>{' '}
        <button
          type="button"
          className="button button-secondary"
          disabled={sending}
          onClick={() => setStep({ name: 'choose' })}
        >
          Keep my order
        </button>
      </div>
    );
  }

  const refundOf = (chosenUnits: Record<number, number>) => {
    const picked = lines.map((line) => ({ unitPrice: line.unitPrice, quantity: chosenUnits[line.lineId] ?? 0 }));
    // Every unit still to come chosen, from an order nothing has left: the whole order, delivery included.
    const whole =
      options.wholeOrderRefund !== null &&
      lines.every((line) => (chosenUnits[line.lineId] ?? 0) === line.cancellableUnits);
    return { whole, amount: whole ? options.wholeOrderRefund! : cancellationRefund(options.pricing, picked, false) };
  };

  const next = (event: React.FormEvent) => {
    event.preventDefault();
    if (choice === null) {
      setChoiceError('Choose the whole order or some items to cancel.');
      return;
    }
    if (choice === 'whole' && options.wholeOrderRefund !== null) {
      const all = Object.fromEntries(lines.map((line) => [line.lineId, line.cancellableUnits]));
      setStep({ name: 'confirm', whole: true, units: all, amount: options.wholeOrderRefund });
      return;
    }
    if (!lines.some((line) => (units[line.lineId] ?? 0) > 0)) {
      setChoiceError('Choose at least one item to cancel.');
      return;
    }
    setChoiceError(undefined);
    setStep({ name: 'confirm', ...refundOf(units), units });
  };

  return (
    <form onSubmit={next} noValidate>
      {liveRegion}
      {step.name === 'refused' && (
        <p role="alert" className="field-error">
          {step.message}
        </p>
      )}
      <p>You can cancel anything we have not sent yet. The refund goes back {options.refundsTo} at once.</p>
      {options.wholeOrderRefund !== null && (
        <fieldset>
          <legend>What would you like to cancel?</legend>
          <label className={styles.choice}>
            <input
              type="radio"
              name={`${ids}-choice`}
              checked={choice === 'whole'}
              onChange={() => {
                setChoice('whole');
                setChoiceError(undefined);
              }}
            />{' '}
            The whole order (refund {formatPence(options.wholeOrderRefund)})
          </label>
          <label className={styles.choice}>
            <input
              type="radio"
              name={`${ids}-choice`}
              checked={choice === 'some'}
              onChange={() => {
                setChoice('some');
                setChoiceError(undefined);
              }}
            />{' '}
            Some items
          </label>
        </fieldset>
      )}
      {choice === 'some' && (
        <fieldset aria-describedby={choiceError ? `${ids}-error` : undefined}>
          <legend>Items to cancel</legend>
          {lines.map((line) => (
            <div className="field" key={line.lineId}>
              <label htmlFor={`${ids}-line-${line.lineId}`}>
                {line.title} ({line.sizeName}): units to cancel
              </label>
              <select
                id={`${ids}-line-${line.lineId}`}
                className="input"
                value={units[line.lineId] ?? 0}
                onChange={(event) => setUnits({ ...units, [line.lineId]: Number(event.target.value) })}
              >
                {Array.from({ length: line.cancellableUnits + 1 }, (_, n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </div>
          ))}
          {choiceError && (
            <p id={`${ids}-error`} className="field-error" role="alert">
              {choiceError}
            </p>
          )}
        </fieldset>
      )}
      {choice === null && choiceError && (
        <p id={`${ids}-error`} className="field-error" role="alert">
          {choiceError}
        </p>
      )}
      <button type="submit" className="button">
        Continue
      </button>
    </form>
  );
}
