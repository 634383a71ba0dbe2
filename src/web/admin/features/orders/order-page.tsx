import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { OrderDetail } from '../../../../contract/admin/orders.ts';
import { fulfilmentLabels, paymentStatusLabels } from '../../../../contract/order-status.ts';
import { shownTransactionId } from '../../../../contract/transaction-id.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { useMayCall } from '../../lib/access.ts';
import { providerLabel } from '../../../../contract/payments.ts';
import { addressLines, formatDateTime, formatPence, humanise } from '../../lib/format.ts';
import { AuditTable } from '../../ui/audit-list.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { actOnOrder, orderQueryOptions, type OrderAction } from './api/orders.ts';
import { OrderLinkRevoke } from './order-link-revoke.tsx';
import { CancelForm } from './cancel-form.tsx';
import { DeliveryDetailsForm } from './delivery-details-form.tsx';
import { DispatchForm } from './dispatch-form.tsx';
import { NoteForm } from './note-form.tsx';
import { OrderDocumentsSection } from './order-documents.tsx';
import { PaymentsToRefund } from './payments-to-refund.tsx';
import { RefundForm } from './refund-form.tsx';
import { TableBox } from '../../ui/table-box.tsx';

/** One order: everything about it, and what staff may do to it now (its `actions`). */
export default function OrderPage() {
  const orderNumber = Number(useParams().orderNumber);
  const order = useQuery({ ...orderQueryOptions(orderNumber), enabled: Number.isInteger(orderNumber) });
  return (
    <AdminPage title={`Order ${Number.isInteger(orderNumber) ? orderNumber : ''}`}>
      <p>
        <Link to="/orders">Back to the orders</Link>
      </p>
      <ErrorAlert error={order.error} />
      {order.data && <OrderView order={order.data} />}
    </AdminPage>
  );
}

function OrderView({ order }: { order: OrderDetail }) {
  const may = useMayCall();
  return (
    <>
      <p>
        {/* Named for a screen reader, which would otherwise hear two words with nothing to tell them apart. */}
        <span className="adm-badge">
          <span className="visually-hidden">Payment: </span>
          {paymentStatusLabels[order.payment]}
        </span>{' '}
        <span className="adm-badge">
          <span className="visually-hidden">Fulfilment: </span>
          {fulfilmentLabels[order.fulfilment]}
        </span>{' '}
        placed {formatDateTime(order.createdAt)}
        {order.status === 'expired' && ' (expired unpaid)'}
      </p>
      <PaymentsToRefund order={order} />
      {/* What may be done first: on a phone above the order, on a wide screen beside it. */}
      <div className="adm-order">
        <div className="adm-order-actions">
          <OrderActions order={order} may={may} />
        </div>
        <div className="adm-order-details">
          <div className="adm-cards">
            <section className="adm-card" aria-labelledby="order-customer">
              <h2 id="order-customer">Customer</h2>
              <dl className="adm-facts">
                <dt>Name</dt>
                <dd>
                  {order.customerId ? (
                    <Link to={`/customers/${order.customerId}`}>{order.customerName}</Link>
                  ) : (
                    order.customerName
                  )}
                  {!order.customerId && ' (guest)'}
                </dd>
                <dt>E-mail</dt>
                <dd>{order.email}</dd>
                <dt>Phone</dt>
                <dd>{order.contactNumber}</dd>
              </dl>
            </section>
            <Address title="Delivery address" id="order-delivery-address" lines={addressLines(order.deliveryAddress)} />
            <Address title="Billing address" id="order-billing-address" lines={addressLines(order.billingAddress)} />
            <section className="adm-card" aria-labelledby="order-delivery">
              <h2 id="order-delivery">Delivery and payment</h2>
              <dl className="adm-facts">
                <dt>Method</dt>
                <dd>
                  {order.deliveryMethod} ({formatPence(order.deliveryPrice)})
                  {order.deliveryKind === 'collection' && ', collected from the shop'}
                </dd>
                {order.carrier && (
                  <>
                    <dt>Carrier</dt>
                    <dd>{order.carrier}</dd>
                    <dt>Tracking</dt>
                    <dd>
                      {order.trackingUrl ? (
                        <a href={order.trackingUrl} rel="noreferrer noopener" target="_blank">
                          {order.trackingNumber}
                        </a>
                      ) : (
                        order.trackingNumber
                      )}
                    </dd>
                  </>
                )}
                <dt>Provider</dt>
                <dd>{order.provider ? providerLabel(order.provider) : 'None yet'}</dd>
                {order.transactionId && (
                  <>
                    <dt>Transaction</dt>
                    <dd>{shownTransactionId(order.transactionId)}</dd>
                  </>
                )}
                {order.paidAt && (
                  <>
                    <dt>Paid</dt>
                    <dd>{formatDateTime(order.paidAt)}</dd>
                  </>
                )}
                {!order.paidAt && (
                  <>
                    <dt>Held until</dt>
                    <dd>{formatDateTime(order.reservedUntil)}</dd>
                  </>
                )}
              </dl>
            </section>
          </div>

          <h2>Lines</h2>
          <TableBox label="Order lines and totals">
            <table className="adm-table">
              <caption className="visually-hidden">Order lines and totals</caption>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Size</th>
                  <th scope="col" className="adm-num">
                    Price
                  </th>
                  <th scope="col" className="adm-num">
                    Quantity
                  </th>
                  <th scope="col" className="adm-num">
                    Restocked
                  </th>
                  <th scope="col" className="adm-num">
                    Dispatched
                  </th>
                  <th scope="col" className="adm-num">
                    To dispatch
                  </th>
                  <th scope="col" className="adm-num">
                    Line total
                  </th>
                </tr>
              </thead>
              <tbody>
                {order.lines.map((line) => (
                  <tr key={line.id}>
                    <td>{line.title}</td>
                    <td>{line.sizeName}</td>
                    <td className="adm-num">{formatPence(line.unitPrice)}</td>
                    <td className="adm-num">{line.quantity}</td>
                    <td className="adm-num">{line.restocked}</td>
                    <td className="adm-num">{line.dispatched}</td>
                    <td className="adm-num">{line.toDispatch}</td>
                    <td className="adm-num">{formatPence(line.lineTotal)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <Total label="Items" pence={order.itemsTotal} />
                {order.discount > 0 && <Total label={`Voucher ${order.voucherCode ?? ''}`} pence={-order.discount} />}
                <Total label="Delivery" pence={order.deliveryPrice} />
                <Total label="Total" pence={order.total} strong />
                <Total label="of which VAT" pence={order.totalVat} />
                {order.refundedTotal > 0 && <Total label="Refunded" pence={-order.refundedTotal} />}
              </tfoot>
            </table>
          </TableBox>

          <Fulfilments fulfilments={order.fulfilments} />

          <h2>Refunds</h2>
          {order.refunds.length === 0 ? (
            <p>No refunds.</p>
          ) : (
            <ul>
              {order.refunds.map((refund) => (
                <li key={refund.id}>
                  {formatDateTime(refund.recordedAt)}: {formatPence(refund.amount)} ({humanise(refund.kind)},{' '}
                  {providerLabel(refund.provider)}
                  {refund.reference ? `, ${refund.reference}` : ''})
                </li>
              ))}
            </ul>
          )}

          <OrderDocumentsSection orderNumber={order.orderNumber} />

          <h2>Payment events</h2>
          {order.paymentEvents.length === 0 ? (
            <p>None from the provider.</p>
          ) : (
            <ul>
              {order.paymentEvents.map((event) => (
                <li key={event.id}>
                  {formatDateTime(event.receivedAt)}: {providerLabel(event.provider)} said {event.providerStatus} (
                  {humanise(event.outcome)})
                </li>
              ))}
            </ul>
          )}

          <h2>Timeline</h2>
          <ol>
            {order.timeline.map((entry, index) => (
              <li key={index}>
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>: {entry.text}
              </li>
            ))}
          </ol>
          <OrderNote orderNumber={order.orderNumber} />

          <h2>Staff actions</h2>
          <AuditTable entries={order.audit} caption="Staff actions on this order" />
        </div>
      </div>
    </>
  );
}

function Address(props: { id: string; title: string; lines: string[] }) {
  return (
    <section className="adm-card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <address>
        {props.lines.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </address>
    </section>
  );
}

function Total(props: { label: string; pence: number; strong?: boolean }) {
  return (
    <tr>
      <th scope="row" colSpan={7} className="adm-num">
        {props.label}
      </th>
      <td className="adm-num">
        {props.strong ? <strong>{formatPence(props.pence)}</strong> : formatPence(props.pence)}
      </td>
    </tr>
  );
}

/** A note for staff, added to the timeline. */
function OrderNote({ orderNumber }: { orderNumber: number }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  return (
    <section aria-labelledby="order-notes">
      <h3 id="order-notes">Add a note</h3>
      <ErrorAlert error={problem} />
      <NoteForm
        onSubmit={async (body) => {
          setProblem(null);
          try {
            await actOnOrder(orderNumber, { action: 'notes', body }, queryClient);
            return true;
          } catch (error) {
            setProblem(error);
            return false;
          }
        }}
      />
    </section>
  );
}

/** The call behind each action, as the server's table names it (src/server/staff/admin-access.ts). */
const actionRoutes: Record<OrderDetail['actions'][number], string> = {
  dispatch: 'POST /orders/:orderNumber/dispatch',
  deliver: 'POST /orders/:orderNumber/deliver',
  'ready-for-collection': 'POST /orders/:orderNumber/ready-for-collection',
  collect: 'POST /orders/:orderNumber/collect',
  cancel: 'POST /orders/:orderNumber/cancel',
  refund: 'POST /orders/:orderNumber/refund',
  'change-delivery-details': 'PUT /orders/:orderNumber/delivery-details',
  'resend-confirmation': 'POST /orders/:orderNumber/resend-confirmation',
};

/**
 * The forms for what the lifecycle allows now and the member's role allows them (`may`, by the
 * server's table); a refusal (409 when someone acted first) is shown.
 */
export function OrderActions({ order: shown, may }: { order: OrderDetail; may: (route: string) => boolean }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const order = { ...shown, actions: shown.actions.filter((action) => may(actionRoutes[action])) };
  const mayRevoke = Boolean(order.paidAt) && may('POST /orders/:orderNumber/order-link/revoke');
  // A paid order's page link can be revoked whatever else may still be done with it.
  if (order.actions.length === 0 && !mayRevoke && !problem) return null;

  async function act(action: OrderAction, message: string): Promise<boolean> {
    setProblem(null);
    setDone('');
    try {
      await actOnOrder(order.orderNumber, action, queryClient);
      setDone(message);
      return true;
    } catch (error) {
      setProblem(error);
      return false;
    }
  }

  return (
    <section className="adm-card" aria-labelledby="order-actions">
      <h2 id="order-actions">Actions</h2>
      <ErrorAlert error={problem} />
      <div role="status">{done && <p className="adm-done">{done}</p>}</div>
      {order.actions.includes('dispatch') && (
        <>
          <h3>Dispatch</h3>
          <DispatchForm
            key={order.lines.map((line) => line.toDispatch).join()}
            order={order}
            onSubmit={(body) => act({ action: 'dispatch', body }, 'Dispatched; the customer has been e-mailed.')}
          />
        </>
      )}
      {order.actions.includes('deliver') && (
        <p>
          <button
            type="button"
            className="button adm-small"
            onClick={() => void act({ action: 'deliver' }, 'Marked as delivered.')}
          >
            Mark as delivered
          </button>
        </p>
      )}
      {order.actions.includes('ready-for-collection') && (
        <p>
          <button
            type="button"
            className="button adm-small"
            onClick={() =>
              void act(
                { action: 'ready-for-collection' },
                'Ready for collection; the customer has been e-mailed to come for it.',
              )
            }
          >
            Ready for collection
          </button>
        </p>
      )}
      {order.actions.includes('collect') && (
        <p>
          <button
            type="button"
            className="button adm-small"
            onClick={() => void act({ action: 'collect' }, 'Marked as collected.')}
          >
            Mark as collected
          </button>
        </p>
      )}
      {order.actions.includes('refund') && (
        <>
          <h3>Refund</h3>
          <RefundForm
            order={order}
            onSubmit={(body) =>
              act(
                { action: 'refund', body },
                order.refundsThrough === 'provider' ? 'Refunded through the provider.' : 'Refund recorded.',
              )
            }
          />
        </>
      )}
      {order.actions.includes('change-delivery-details') && (
        <>
          <h3>Delivery details</h3>
          <DeliveryDetailsForm
            order={order}
            onSubmit={(body) => act({ action: 'delivery-details', body }, 'Delivery details changed.')}
          />
        </>
      )}
      {order.actions.includes('resend-confirmation') && (
        <p>
          <button
            type="button"
            className="button button-secondary adm-small"
            onClick={() =>
              void act({ action: 'resend-confirmation' }, `The confirmation has been sent again to ${order.email}.`)
            }
          >
            Send the confirmation again
          </button>
        </p>
      )}
      {mayRevoke && (
        <>
          <h3>Customer&apos;s order page</h3>
          <OrderLinkRevoke
            orderNumber={order.orderNumber}
            email={order.email}
            onDone={(message) => {
              setProblem(null);
              setDone(message);
            }}
            onProblem={(error) => {
              setDone('');
              setProblem(error);
            }}
          />
        </>
      )}
      {order.actions.includes('cancel') && (
        <>
          <h3>Cancel</h3>
          <CancelForm
            onSubmit={(reason) => act({ action: 'cancel', body: reason ? { reason } : {} }, 'Order cancelled.')}
          />
        </>
      )}
    </section>
  );
}

/** Each fulfilment: when and by whom, the units it sent, and its parcels (with tracking links) or its untracked service. */
function Fulfilments({ fulfilments }: { fulfilments: OrderDetail['fulfilments'] }) {
  return (
    <section aria-labelledby="order-fulfilments">
      <h2 id="order-fulfilments">Fulfilments</h2>
      {fulfilments.length === 0 ? (
        <p>Nothing dispatched yet.</p>
      ) : (
        <ol>
          {fulfilments.map((fulfilment) => (
            <li key={fulfilment.id}>
              <time dateTime={fulfilment.createdAt}>{formatDateTime(fulfilment.createdAt)}</time>
              {fulfilment.staffEmail ? ` by ${fulfilment.staffEmail}` : ''}:{' '}
              {fulfilment.lines.map((line) => `${line.quantity} × ${line.title} (${line.sizeName})`).join(', ')}
              {fulfilment.method === 'untracked' ? (
                <>, untracked by {fulfilment.service}</>
              ) : (
                <ul>
                  {fulfilment.parcels.map((parcel) => (
                    <li key={`${parcel.carrier}-${parcel.trackingNumber}`}>
                      {parcel.carrier}:{' '}
                      {parcel.trackingUrl ? (
                        <a href={parcel.trackingUrl} rel="noreferrer noopener" target="_blank">
                          {parcel.trackingNumber}
                        </a>
                      ) : (
                        parcel.trackingNumber
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
