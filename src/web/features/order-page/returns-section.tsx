import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  returnPhotoLimits,
  returnReasonLabels,
  returnReasons,
  returnStatusLabels,
  type OrderReturns,
  type ReturnReason,
} from '../../../contract/returns.ts';
import { ApiRequestError, limitMessage } from '../../lib/api.ts';
import { formatPence } from '../../lib/format.ts';
import { orderReturnsQueryOptions, requestReturn } from './api/returns.ts';

const dateOf = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  );

/**
 * Returns on the customer's order page (docs/rules.md#returns): the order's returns with their
 * returns authorisation numbers and status, and a form to ask for one within 14 days of delivery
 * (which items and how many, why, a note and, for damage, up to three photos).
 */
export function ReturnsSection({
  orderKey,
  notYetReceived,
}: {
  orderKey: string;
  /** Nothing has reached the shopper yet (by delivery or collection): returns open once it has. */
  notYetReceived?: 'delivery' | 'collection';
}) {
  const id = useId();
  const data = useQuery(orderReturnsQueryOptions(orderKey));
  // The request's confirmation lives here, not in the form: a request of every unit left takes the
  // form away, and the shopper is still told, with the focus on it (not dropped to the page).
  const [requested, setRequested] = useState('');
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (requested) said.current?.focus();
  }, [requested]);
  if (data.isPending) return null;
  if (data.isError || !data.data) return null;
  const returns = data.data;
  const returnable = returns.lines.filter((line) => line.returnable > 0);
  return (
    <section aria-labelledby={`${id}-returns`}>
      <h2 id={`${id}-returns`}>Returns</h2>
      {returns.returns.length > 0 && (
        <ul>
          {returns.returns.map((item) => (
            <li key={item.raNumber}>
              <p>
                <strong>{item.raNumber}</strong>: {returnStatusLabels[item.status]} ({returnReasonLabels[item.reason]},
                asked on {dateOf(item.requestedAt)})
              </p>
              <ul>
                {item.lines.map((line) => (
                  <li key={line.orderLineId}>
                    {line.quantity} × {line.title}
                    {line.sizeName && ` (${line.sizeName})`}
                  </li>
                ))}
              </ul>
              {item.status === 'requested' && (
                <p>We will e-mail you once we have looked at it. Please do not send it yet.</p>
              )}
              {item.status === 'authorised' && (
                <p>
                  Please pack the items securely, put a note with <strong>{item.raNumber}</strong> inside, and send them
                  to: {returns.returnAddress}. Keep your proof of postage.
                </p>
              )}
              {item.status === 'refused' && item.refusalReason && <p>Why: {item.refusalReason}</p>}
              {item.status === 'received' && <p>We have your return and will refund you within 14 days.</p>}
              {item.status === 'refunded' && item.refundAmount !== null && (
                <p>Refunded {formatPence(item.refundAmount)}.</p>
              )}
            </li>
          ))}
        </ul>
      )}
      <p ref={said} role="status" tabIndex={-1}>
        {requested}
      </p>
      {returnable.length > 0 ? (
        <ReturnForm orderKey={orderKey} lines={returnable} onRequested={setRequested} />
      ) : (
        returns.returns.length === 0 && (
          <p>
            {notYetReceived === 'delivery'
              ? 'You can return items within 14 days of their arrival. Until they are sent, see “Cancel your order” above.'
              : notYetReceived === 'collection'
                ? 'You can return items within 14 days of collecting them. Until they are ready, see “Cancel your order” above.'
                : 'Nothing on this order can be returned now.'}
          </p>
        )
      )}
    </section>
  );
}

function ReturnForm({
  orderKey,
  lines,
  onRequested,
}: {
  orderKey: string;
  lines: OrderReturns['lines'];
  onRequested: (said: string) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<ReturnReason | ''>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const forDamage = reason === 'damaged_in_transit' || reason === 'faulty';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const chosen = lines
      .map((line) => ({ orderLineId: line.orderLineId, quantity: Number(data.get(`qty-${line.orderLineId}`) ?? 0) }))
      .filter((line) => line.quantity > 0);
    const found: Record<string, string> = {};
    if (!reason) found.reason = 'Please choose why you are returning it';
    if (chosen.length === 0) found.lines = 'Please choose at least one item to return';
    const photos = forDamage ? (data.getAll('photo') as File[]).filter((file) => file.size > 0) : [];
    if (photos.length > returnPhotoLimits.maxPhotos)
      found.photo = `Please choose at most ${returnPhotoLimits.maxPhotos} photos`;
    setErrors(found);
    setProblem('');
    onRequested('');
    if (Object.keys(found).length > 0 || !reason) return;
    setBusy(true);
    try {
      const made = await requestReturn(
        orderKey,
        { reason, note: String(data.get('note') ?? ''), lines: chosen },
        photos,
      );
      onRequested(
        `Thank you: your return ${made.raNumber} is requested${photos.length > 0 ? `, with ${photos.length === 1 ? 'its photo' : `its ${photos.length} photos`}` : ''}. We will e-mail you what to do next.`,
      );
      form.reset();
      setReason('');
      await queryClient.invalidateQueries({ queryKey: orderReturnsQueryOptions(orderKey).queryKey });
    } catch (error) {
      if (error instanceof ApiRequestError && error.fields.length > 0) {
        const named: Record<string, string> = {};
        for (const field of error.fields)
          named[field.field.startsWith('lines') ? 'lines' : field.field] = field.message;
        setErrors(named);
      } else
        setProblem(
          limitMessage(error) ??
            (error instanceof ApiRequestError ? error.serverMessage : undefined) ??
            'Sorry, your request could not be sent. Please try again.',
        );
    } finally {
      setBusy(false);
    }
  }

  const described = (name: string) => (errors[name] ? `${id}-${name}-error` : undefined);
  const errorOf = (name: string) =>
    errors[name] && (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    );
  const madeToOrder = lines.some((line) => line.madeToOrder);

  return (
    <form aria-label="Request a return" onSubmit={(event) => void submit(event)} noValidate>
      <h3>Request a return</h3>
      <p>
        You may return goods within 14 days of delivery. We refund the goods, and the standard delivery when the whole
        order comes back, within 14 days of receiving them. There is no restocking fee.
      </p>
      <fieldset aria-describedby={described('lines')}>
        <legend>What would you like to return?</legend>
        {lines.map((line) => (
          <div className="field" key={line.orderLineId}>
            <label htmlFor={`${id}-qty-${line.orderLineId}`}>
              {line.title}
              {line.sizeName && ` (${line.sizeName})`}: how many (up to {line.returnable}, by{' '}
              {line.windowEndsAt ? dateOf(line.windowEndsAt) : ''})
            </label>
            <input
              id={`${id}-qty-${line.orderLineId}`}
              name={`qty-${line.orderLineId}`}
              className="input"
              type="number"
              min={0}
              max={line.returnable}
              defaultValue={0}
              inputMode="numeric"
            />
            {line.madeToOrder && <p>Made to order: it cannot be returned if you changed your mind.</p>}
          </div>
        ))}
        {errorOf('lines')}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Why are you returning it?</label>
        <select
          id={`${id}-reason`}
          name="reason"
          className="input"
          value={reason}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={described('reason')}
          onChange={(event) => setReason(event.target.value as ReturnReason)}
        >
          <option value="">Please choose</option>
          {returnReasons.map((value) => (
            <option key={value} value={value}>
              {returnReasonLabels[value]}
              {value === 'changed_mind' && madeToOrder ? ' (not for made-to-order items)' : ''}
            </option>
          ))}
        </select>
        {errorOf('reason')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-note`}>Anything we should know? (optional)</label>
        <textarea id={`${id}-note`} name="note" className="input" maxLength={2000} rows={3} />
        {errorOf('note')}
      </div>
      {forDamage && (
        <div className="field">
          <label htmlFor={`${id}-photo`}>
            Photos of the damage or fault (up to {returnPhotoLimits.maxPhotos}, JPEG, PNG or WebP)
          </label>
          <input
            id={`${id}-photo`}
            name="photo"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            multiple
            aria-describedby={described('photo')}
          />
          {errorOf('photo')}
        </div>
      )}
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        REQUEST RETURN
      </button>
    </form>
  );
}
