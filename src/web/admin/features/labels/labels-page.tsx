import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { LabelOutcome, LabelQueueEntry } from '../../../../contract/admin/shipping.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { useMayCall } from '../../lib/access.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { TableBox } from '../../ui/table-box.tsx';
import {
  cancelLabel,
  dispatchWithLabels,
  labelQueueQueryOptions,
  labelsAndSlipsPdfHref,
  labelsPdfHref,
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

  async function act(work: () => Promise<string>) {
    setProblem(null);
    setSaid('');
    setBusy(true);
    try {
      setSaid(await work());
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

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
      <ErrorAlert error={queue.error ?? problem} />
      <div className="adm-row" role="group" aria-label="With the chosen orders">
        <button
          type="button"
          className="button adm-small"
          disabled={busy || chosenIds.length === 0 || !queue.data?.enabled || !mayCall('POST /labels')}
          onClick={() =>
            act(async () =>
              summary((await makeLabels(chosenIds, queryClient)).outcomes, 'created', ['has its label', 'have labels']),
            )
          }
        >
          Make labels
        </button>
        {withLabel.length > 0 ? (
          <>
            <a
              className="button button-secondary adm-small"
              href={labelsPdfHref(withLabel.map((order) => order.orderId))}
              download
            >
              Download {withLabel.length === 1 ? 'the label' : `${withLabel.length} labels`} (PDF)
            </a>
            <a
              className="button button-secondary adm-small"
              href={labelsAndSlipsPdfHref(withLabel.map((order) => order.orderId))}
              download
            >
              Labels and packing slips (PDF)
            </a>
          </>
        ) : (
          <button type="button" className="button button-secondary adm-small" disabled>
            Download labels (PDF)
          </button>
        )}
        <button
          type="button"
          className="button button-secondary adm-small"
          disabled={busy || withLabel.length === 0 || !mayCall('POST /labels/dispatch')}
          onClick={() =>
            act(async () => {
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
      <div role="status">{said && <p className="adm-done">{said}</p>}</div>
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
                    act(async () => {
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
        {label?.status === 'created' ? (
          <>
            Ready: <span className="adm-mono">{label.trackingNumber ?? 'no tracking number yet'}</span>{' '}
            <button
              type="button"
              className="button button-secondary adm-small"
              disabled={props.busy}
              onClick={props.onCancel}
            >
              Cancel label<span className="visually-hidden"> of order {order.orderNumber}</span>
            </button>
          </>
        ) : label?.status === 'creating' ? (
          <>Being made: make it again if this stays.</>
        ) : label?.status === 'failed' ? (
          <>
            <strong>Refused by Click &amp; Drop:</strong> {label.message}
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
