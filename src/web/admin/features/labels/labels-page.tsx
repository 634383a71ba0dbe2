import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { LabelChange, LabelOutcome, LabelQueueEntry } from '../../../../contract/admin/shipping.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { useMayCall } from '../../lib/access.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { TableBox } from '../../ui/table-box.tsx';
import {
  cancelLabel,
  dispatchWithLabels,
  downloadLabels,
  downloadLabelsAndSlips,
  labelQueueQueryOptions,
  makeLabels,
} from './api/labels.ts';

/**
 * Shipping labels (docs/back-office.md#shipping-labels): the orders waiting to be dispatched, chosen
 * with a box each; their labels made in Royal Mail Click & Drop, downloaded as one PDF in the list's
 * order, and the orders dispatched with their tracking numbers. What happened to each order is said
 * on its row: made with its tracking number, or Click & Drop's own words.
 */
export default function LabelsPage() {
  const queue = useQuery(labelQueueQueryOptions());
  const queryClient = useQueryClient();
  const mayCall = useMayCall();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [problem, setProblem] = useState<unknown>(null);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const orders = queue.data?.orders ?? [];
  // In the list's order, whatever order they were ticked in.
  const chosenIds = orders.filter((order) => chosen.has(order.orderId)).map((order) => order.orderId);
  const withLabel = orders.filter((order) => chosen.has(order.orderId) && order.label?.status === 'created');

  function choose(orderId: number, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(orderId);
    else next.delete(orderId);
    setChosen(next);
  }

  const messages = useRef<HTMLDivElement>(null);
  // Counts ended actions: each end moves the keyboard's focus to the message.
  const [settled, setSettled] = useState(0);
  /**
   * Runs one action, saying what it is doing meanwhile (Click & Drop takes two calls a second, so
   * twenty labels take a while) and then what became of it. The buttons are disabled meanwhile, which
   * takes the keyboard's focus off them: it is put on the message, not left at the top of the page.
   */
  async function act(doing: string, work: () => Promise<string>) {
    setProblem(null);
    setSaid(doing);
    setBusy(true);
    try {
      setSaid(await work());
    } catch (error) {
      setSaid('');
      setProblem(error);
    } finally {
      setBusy(false);
      setSettled((count) => count + 1);
    }
  }
  useEffect(() => {
    if (settled > 0) messages.current?.focus();
  }, [settled]);

  /** `verb` is said of one order and of many: "1 order has its label", "3 orders have labels". */
  const summary = (outcomes: LabelOutcome[], done: LabelOutcome['status'], verb: [one: string, many: string]) => {
    const good = outcomes.filter((outcome) => outcome.status === done).length;
    const other = outcomes.length - good;
    return `${good} ${good === 1 ? `order ${verb[0]}` : `orders ${verb[1]}`}.${other > 0 ? ` ${other} could not be: see ${other === 1 ? 'its row' : 'their rows'}.` : ''}`;
  };

  return (
    <AdminPage title="Shipping labels">
      {queue.data?.mode === 'local' && (
        <p className="adm-note">
          Labels here come from the shop&apos;s own Click &amp; Drop sandbox: they are marked &quot;not postage&quot;
          and cannot be posted.
        </p>
      )}
      {queue.data && !queue.data.enabled && (
        <p className="adm-note">
          Labels are off. Set CLICK_AND_DROP_MODE=live and CLICK_AND_DROP_API_KEY to buy them from Royal Mail Click
          &amp; Drop; meanwhile orders are dispatched from their own pages.
        </p>
      )}
      <ErrorAlert error={queue.error} />
      <div className="adm-row adm-sticky-actions" role="group" aria-label="With the chosen orders">
        <button
          type="button"
          className="button adm-small"
          disabled={busy || chosenIds.length === 0 || !queue.data?.enabled || !mayCall('POST /labels')}
          onClick={() =>
            act(`Making ${plural(chosenIds.length, 'label')} in Click & Drop…`, async () =>
              summary((await makeLabels(chosenIds, queryClient)).outcomes, 'created', ['has its label', 'have labels']),
            )
          }
        >
          Make labels
        </button>
        <button
          type="button"
          className="button button-secondary adm-small"
          disabled={busy || withLabel.length === 0}
          onClick={() =>
            act(`Fetching ${plural(withLabel.length, 'label')}…`, async () => {
              const name = await downloadLabels(withLabel.map((order) => order.orderId));
              return `Downloaded ${name}.`;
            })
          }
        >
          {withLabel.length === 0
            ? 'Download labels (PDF)'
            : withLabel.length === 1
              ? 'Download the label (PDF)'
              : `Download ${withLabel.length} labels (PDF)`}
        </button>
        <button
          type="button"
          className="button button-secondary adm-small"
          disabled={busy || withLabel.length === 0}
          onClick={() =>
            act(`Fetching ${plural(withLabel.length, 'label')} and packing slips…`, async () => {
              const name = await downloadLabelsAndSlips(withLabel.map((order) => order.orderId));
              return `Downloaded ${name}.`;
            })
          }
        >
          Labels and packing slips (PDF)
        </button>
        <button
          type="button"
          className="button button-secondary adm-small"
          disabled={busy || withLabel.length === 0 || !mayCall('POST /labels/dispatch')}
          onClick={() =>
            act(`Dispatching ${plural(withLabel.length, 'order')}…`, async () => {
              const { outcomes } = await dispatchWithLabels(
                withLabel.map((order) => order.orderId),
                queryClient,
              );
              setChosen(new Set());
              return summary(outcomes, 'dispatched', [
                'dispatched, its customer e-mailed',
                'dispatched, their customers e-mailed',
              ]);
            })
          }
        >
          Mark dispatched
        </button>
      </div>
      <div ref={messages} tabIndex={-1} className="adm-messages">
        <ErrorAlert error={problem} />
        <div role="status">{said && <p className="adm-done">{said}</p>}</div>
      </div>
      {queue.data && orders.length === 0 && <p>No orders are waiting to be dispatched.</p>}
      {orders.length > 0 && (
        <div className="adm-field adm-check">
          <input
            id="labels-choose-all"
            type="checkbox"
            checked={chosenIds.length === orders.length}
            onChange={(event) => setChosen(new Set(event.target.checked ? orders.map((order) => order.orderId) : []))}
          />
          <label htmlFor="labels-choose-all">Choose every order</label>
        </div>
      )}
      {orders.length > 0 && (
        <TableBox label="Orders waiting to be dispatched">
          <table className="adm-table">
            <caption className="visually-hidden">Orders waiting to be dispatched, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Chosen</span>
                </th>
                <th scope="col">Order</th>
                <th scope="col">Customer</th>
                <th scope="col">Sent by</th>
                <th scope="col">Parcel</th>
                <th scope="col">Label</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <LabelRow
                  key={order.orderId}
                  order={order}
                  chosen={chosen.has(order.orderId)}
                  onChoose={(on) => choose(order.orderId, on)}
                  onCancel={() =>
                    act(`Cancelling the label of order ${order.orderNumber}…`, async () => {
                      await cancelLabel(order.orderId, queryClient);
                      return `The label of order ${order.orderNumber} is cancelled in Click & Drop.`;
                    })
                  }
                  busy={busy}
                />
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </AdminPage>
  );
}

function LabelRow(props: {
  order: LabelQueueEntry;
  chosen: boolean;
  onChoose: (on: boolean) => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const { order } = props;
  const label = order.label;
  // Refused, but the address or the weight was changed since: the refusal may be out of date.
  const stale = label?.status === 'failed' && label.changedSince.length > 0;
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          aria-label={`Choose order ${order.orderNumber}`}
          checked={props.chosen}
          onChange={(event) => props.onChoose(event.target.checked)}
        />
      </td>
      <td>
        <Link to={`/orders/${order.orderNumber}`}>{order.orderNumber}</Link>
      </td>
      <td>
        {order.customerName}, {order.postcode}
      </td>
      <td>{order.service ?? `${order.deliveryMethod} (no carrier service)`}</td>
      <td>
        {order.parcel && (
          <>
            {order.parcel.contents.map((unit) => `${unit.quantity} × ${unit.name}`).join(', ')}
            <br />
            {weight(order.parcel.weightGrams)}
          </>
        )}
      </td>
      <td>
        {label?.status === 'created' ? (
          <>
            Ready: <span className="adm-mono">{label.trackingNumber ?? 'no tracking number yet'}</span>{' '}
            {confirming ? (
              <span className="adm-confirm-inline">
                A cancelled label is void.{' '}
                <button
                  ref={confirmButton}
                  type="button"
                  className="button adm-small"
                  disabled={props.busy}
                  onClick={() => {
                    setConfirming(false);
                    props.onCancel();
                  }}
                >
                  Yes, cancel the label<span className="visually-hidden"> of order {order.orderNumber}</span>
                </button>{' '}
                <button
                  type="button"
                  className="button button-secondary adm-small"
                  onClick={() => setConfirming(false)}
                >
                  Keep it<span className="visually-hidden"> (order {order.orderNumber})</span>
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="button button-secondary adm-small"
                disabled={props.busy}
                onClick={() => setConfirming(true)}
              >
                Cancel label<span className="visually-hidden"> of order {order.orderNumber}</span>
              </button>
            )}
          </>
        ) : label?.status === 'creating' ? (
          <>Being made: make it again if this stays.</>
        ) : stale && !order.blocked ? (
          <>
            <strong>
              Refused before the {label.changedSince.map((change) => changeNames[change]).join(' and the ')}{' '}
              {label.changedSince.length === 1 ? 'was' : 'were'} changed:
            </strong>{' '}
            make the label again. <span className="adm-hint">Click &amp; Drop had said: {label.message}</span>
          </>
        ) : label?.status === 'failed' && !stale ? (
          <>
            <strong>Refused by Click &amp; Drop:</strong> {label.message} Correct the address on the{' '}
            <Link to={`/orders/${order.orderNumber}`}>order&apos;s page</Link>, then make its label again.
          </>
        ) : order.blocked ? (
          <>Cannot be made: {order.blocked}</>
        ) : label?.status === 'cancelled' ? (
          <>Cancelled: a new one can be made.</>
        ) : (
          <>Not made yet.</>
        )}
      </td>
    </tr>
  );
}

/** What may have put a refusal right, as the page names it. */
const changeNames: Record<LabelChange, string> = { address: 'address', weight: 'weight' };

/** "850 g", "5.8 kg", "1.255 kg": to the gram, as the label is bought. */
function weight(grams: number): string {
  return grams < 1000 ? `${grams} g` : `${grams / 1000} kg`;
}

/** "1 label", "3 labels". */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
