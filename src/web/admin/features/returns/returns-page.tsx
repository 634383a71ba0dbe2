import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  returnConditionLabels,
  returnConditions,
  returnReasonLabels,
  returnStatusLabels,
  type AdminReturn,
  type ReturnCondition,
} from '../../../../contract/returns.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDate, formatDateTime, formatPence, poundsToPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField, TextAreaField } from '../../ui/field.tsx';
import { actOnReturn, returnPhotoHref, returnQueueQueryOptions, type ReturnAction } from './api/returns.ts';

/**
 * Returns (docs/back-office.md#returns): the queue by refund deadline (14 days after the goods
 * came back), and each request's actions: authorise or refuse it, receive the goods (units to
 * restock, their condition), refund through the refund workflow less any deduction for
 * diminished value. Never a restocking fee.
 */
export default function ReturnsPage() {
  const [show, setShow] = useState<'open' | 'closed'>('open');
  const queue = useQuery(returnQueueQueryOptions(show));
  return (
    <AdminPage title="Returns">
      <div className="adm-row" role="group" aria-label="Which returns">
        <button
          type="button"
          className={`button adm-small${show === 'open' ? '' : ' button-secondary'}`}
          aria-pressed={show === 'open'}
          onClick={() => setShow('open')}
        >
          Open
        </button>
        <button
          type="button"
          className={`button adm-small${show === 'closed' ? '' : ' button-secondary'}`}
          aria-pressed={show === 'closed'}
          onClick={() => setShow('closed')}
        >
          Refused and refunded
        </button>
      </div>
      <ErrorAlert error={queue.error} />
      {queue.data && queue.data.returns.length === 0 && <p>No returns here.</p>}
      {queue.data?.returns.map((item) => (
        <ReturnCard key={item.id} item={item} />
      ))}
    </AdminPage>
  );
}

function ReturnCard({ item }: { item: AdminReturn }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const heading = `return-${item.id}`;

  async function act(action: ReturnAction, message: string) {
    setProblem(null);
    setDone('');
    setBusy(true);
    try {
      await actOnReturn(item.id, action, queryClient);
      setDone(message);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="adm-card" aria-labelledby={heading}>
      <h2 id={heading}>
        {item.raNumber}: {returnStatusLabels[item.status]}
      </h2>
      <dl className="adm-facts">
        <dt>Order</dt>
        <dd>
          <Link to={`/orders/${item.orderNumber}`}>{item.orderNumber}</Link> ({item.name}, {item.email})
        </dd>
        <dt>Reason</dt>
        <dd>{returnReasonLabels[item.reason]}</dd>
        {item.note && (
          <>
            <dt>Shopper&apos;s note</dt>
            <dd>{item.note}</dd>
          </>
        )}
        <dt>Requested</dt>
        <dd>{formatDateTime(item.requestedAt)}</dd>
        {item.receivedAt && (
          <>
            <dt>Received</dt>
            <dd>{formatDateTime(item.receivedAt)}</dd>
          </>
        )}
        {item.refundDueAt && item.status !== 'refunded' && (
          <>
            <dt>Refund due by</dt>
            <dd>
              <strong>{formatDate(item.refundDueAt)}</strong>
            </dd>
          </>
        )}
        {item.refusalReason && (
          <>
            <dt>Refused because</dt>
            <dd>{item.refusalReason}</dd>
          </>
        )}
        {item.refundAmount !== null && (
          <>
            <dt>Refunded</dt>
            <dd>
              {formatPence(item.refundAmount)}
              {item.deduction > 0 && ` (less ${formatPence(item.deduction)}: ${item.deductionReason ?? ''})`}
            </dd>
          </>
        )}
      </dl>
      <ul>
        {item.lines.map((line) => (
          <li key={line.orderLineId}>
            {line.quantity} × {line.title}
            {line.sizeName && ` (${line.sizeName})`}
            {line.condition && `: ${returnConditionLabels[line.condition]}, ${line.restocked ?? 0} back in stock`}
          </li>
        ))}
      </ul>
      {item.photos.length > 0 && (
        <p>
          Photos:{' '}
          {item.photos.map((position) => (
            <a key={position} href={returnPhotoHref(item.id, position)} target="_blank" rel="noreferrer">
              Photo {position}{' '}
            </a>
          ))}
        </p>
      )}
      <ErrorAlert error={problem} />
      <div role="status">{done && <p className="adm-done">{done}</p>}</div>
      {item.status === 'requested' && (
        <div className="adm-row">
          <button
            type="button"
            className="button adm-small"
            disabled={busy}
            onClick={() => void act({ action: 'authorise' }, `${item.raNumber} authorised; the shopper was e-mailed.`)}
          >
            Authorise {item.raNumber}
          </button>
        </div>
      )}
      {(item.status === 'requested' || item.status === 'authorised') && (
        <RefuseForm
          item={item}
          busy={busy}
          onRefuse={(reason) => act({ action: 'refuse', body: { reason } }, 'Refused.')}
        />
      )}
      {item.status === 'authorised' && (
        <ReceiveForm
          item={item}
          busy={busy}
          onReceive={(lines) => act({ action: 'receive', body: { lines } }, 'Received; the refund is due in 14 days.')}
        />
      )}
      {item.status === 'received' && (
        <RefundForm
          item={item}
          busy={busy}
          onRefund={(body) => act({ action: 'refund', body }, 'Refunded; the shopper was e-mailed.')}
        />
      )}
    </section>
  );
}

function RefuseForm(props: { item: AdminReturn; busy: boolean; onRefuse: (reason: string) => Promise<void> }) {
  const [error, setError] = useState<string>();
  const id = `refuse-${props.item.id}`;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    if (!reason) return setError('Please say why the return is refused');
    setError(undefined);
    void props.onRefuse(reason);
  }
  return (
    <details>
      <summary>Refuse {props.item.raNumber}…</summary>
      <form aria-label={`Refuse ${props.item.raNumber}`} className="adm-form" onSubmit={submit} noValidate>
        <TextAreaField id={id} name="reason" label="Why (the shopper is told)" maxLength={2000} error={error} />
        <button type="submit" className="button button-secondary adm-small" disabled={props.busy}>
          Refuse the return
        </button>
      </form>
    </details>
  );
}

function ReceiveForm(props: {
  item: AdminReturn;
  busy: boolean;
  onReceive: (lines: Array<{ orderLineId: number; restock: number; condition: ReturnCondition }>) => Promise<void>;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void props.onReceive(
      props.item.lines.map((line) => ({
        orderLineId: line.orderLineId,
        restock: Number(data.get(`restock-${line.orderLineId}`) ?? 0),
        condition: String(data.get(`condition-${line.orderLineId}`)) as ReturnCondition,
      })),
    );
  }
  // What the shopper said of the goods proposes their state: a damaged or faulty piece is not put
  // back for the next shopper unless staff say so.
  const proposed: ReturnCondition | undefined =
    props.item.reason === 'damaged_in_transit' ? 'damaged' : props.item.reason === 'faulty' ? 'faulty' : undefined;
  return (
    <form aria-label={`Receive ${props.item.raNumber}`} className="adm-form" onSubmit={submit}>
      <h3>Goods received</h3>
      {props.item.lines.map((line) => (
        <fieldset key={line.orderLineId}>
          <legend>
            {line.quantity} × {line.title}
            {line.sizeName && ` (${line.sizeName})`}
          </legend>
          <Field
            id={`restock-${props.item.id}-${line.orderLineId}`}
            name={`restock-${line.orderLineId}`}
            label="Units back in stock"
            type="number"
            min={0}
            max={line.quantity}
            defaultValue={proposed ? 0 : line.quantity}
          />
          <SelectField
            id={`condition-${props.item.id}-${line.orderLineId}`}
            name={`condition-${line.orderLineId}`}
            label="Condition"
            defaultValue={proposed ?? 'as_new'}
          >
            {returnConditions.map((condition) => (
              <option key={condition} value={condition}>
                {returnConditionLabels[condition]}
              </option>
            ))}
          </SelectField>
        </fieldset>
      ))}
      <button type="submit" className="button adm-small" disabled={props.busy}>
        Receive {props.item.raNumber}
      </button>
    </form>
  );
}

function RefundForm(props: {
  item: AdminReturn;
  busy: boolean;
  onRefund: (body: { deduction: number; deductionReason: string }) => Promise<void>;
}) {
  const { goods, delivery, cap } = props.item.refundDue;
  // Regulation 34(9)-(12) (docs/rules.md#returns): a deduction for diminished value belongs to a
  // change of mind only, and comes off the goods, never the delivery; the server refuses otherwise.
  const deductible = props.item.reason === 'changed_mind';
  const [error, setError] = useState<{ deduction?: string; reason?: string }>({});
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!deductible) return void props.onRefund({ deduction: 0, deductionReason: '' });
    const data = new FormData(event.currentTarget);
    const typed = String(data.get('deduction') ?? '').trim();
    const deduction = typed ? poundsToPence(typed) : 0;
    const deductionReason = String(data.get('deductionReason') ?? '').trim();
    if (deduction === undefined || deduction > goods)
      return setError({ deduction: `Please enter an amount in pounds, at most the goods' ${formatPence(goods)}` });
    if (deduction > 0 && !deductionReason) return setError({ reason: 'Please say why the value is diminished' });
    setError({});
    void props.onRefund({ deduction, deductionReason });
  }
  const id = props.item.id;
  return (
    <form aria-label={`Refund ${props.item.raNumber}`} className="adm-form" onSubmit={submit} noValidate>
      <h3>Refund</h3>
      <p>
        Goods as paid {formatPence(goods)}
        {delivery > 0 && `, standard delivery ${formatPence(delivery)} (the whole order came back)`}; at most{' '}
        {formatPence(cap)} is left to refund. No restocking fee may be charged.
      </p>
      {deductible ? (
        <>
          <Field
            id={`deduction-${id}`}
            name="deduction"
            label="Deduction for diminished value, from the goods only, £ (optional)"
            inputMode="decimal"
            error={error.deduction}
          />
          <TextAreaField
            id={`deduction-reason-${id}`}
            name="deductionReason"
            label="Why the value is diminished"
            maxLength={2000}
            error={error.reason}
          />
        </>
      ) : (
        <p>Returned faulty, damaged or wrong: refunded in full, with no deduction.</p>
      )}
      <button type="submit" className="button adm-small" disabled={props.busy}>
        Refund {props.item.raNumber}
      </button>
    </form>
  );
}
