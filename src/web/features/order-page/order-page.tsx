import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { OrderPage as OrderPageView, OrderPageFulfilment } from '../../../contract/order-page.ts';
import { ApiRequestError, limitMessage, requestJson } from '../../lib/api.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { CancelSection } from './cancel-section.tsx';
import styles from './order-page.module.css';
import { ReturnsSection } from './returns-section.tsx';

/** GET /api/order-page/{key}: the order its link opens; a bad link is not asked about again. */
export function orderPageQueryOptions(key: string) {
  return queryOptions({
    queryKey: ['order-page', key],
    queryFn: ({ signal }) => requestJson<OrderPageView>(`/api/order-page/${encodeURIComponent(key)}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}

const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(new Date(iso));

/**
 * The customer's order page, `/order/{key}` (docs/rules.md#the-customers-order-page): opened from
 * the signed link in every order e-mail, or from My Account. Its status, lines, totals,
 * addresses, fulfilments with their tracking, and the invoice and credit notes to download.
 */
export default function OrderPage() {
  const { key = '' } = useParams();
  const order = useQuery(orderPageQueryOptions(key));
  if (order.isError) return <OrderLinkNotValid error={order.error} />;
  const view = order.data;
  return (
    <div className="container page">
      <PageMeta title={view ? `Order ${view.orderNumber}` : 'Your Order'} />
      {!view ? (
        <>
          <h1 className="page-title">Your Order</h1>
          <p role="status">Finding your order…</p>
        </>
      ) : (
        <OrderView order={view} orderKey={key} />
      )}
    </div>
  );
}

/** The whole order, once loaded; `orderKey` is the key of the link it was opened by. */
export function OrderView({ order, orderKey }: { order: OrderPageView; orderKey: string }) {
  const queries = useQueryClient();
  // A cancellation or a return changes the order: its page is asked for again.
  const changed = () => void queries.invalidateQueries({ queryKey: ['order-page', orderKey] });
  return (
    <>
      <h1 className="page-title">Order {order.orderNumber}</h1>
      <section className={styles.panel} aria-labelledby="order-status">
        <h2 id="order-status">Status</h2>
        <dl className={styles.statuses}>
          <div>
            <dt>Placed</dt>
            <dd data-testid="order-placed">{day(order.placedAt)}</dd>
          </div>
          <div>
            <dt>Payment</dt>
            <dd data-testid="order-payment">{order.payment.words}</dd>
          </div>
          <div>
            <dt>{order.deliveryKind === 'collection' ? 'Collection' : 'Delivery'}</dt>
            <dd data-testid="order-fulfilment">{order.fulfilment.words}</dd>
          </div>
        </dl>
      </section>

      <section className={styles.panel} aria-labelledby="order-lines">
        <h2 id="order-lines">What you ordered</h2>
        {/* Wider than a small screen it scrolls in its box, which keys can reach; on a phone each
            line stands as a card instead (order-page.module.css), each value named by data-label. */}
        <div className={styles.tableWrap} role="region" aria-labelledby="order-lines" tabIndex={0}>
          <table className={styles.table} data-testid="order-lines">
            <caption className="visually-hidden">The products on order {order.orderNumber}</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Quantity</th>
                <th scope="col">Sent</th>
                <th scope="col">Refunded</th>
                <th scope="col" className={styles.money}>
                  Price each
                </th>
                <th scope="col" className={styles.money}>
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.id}>
                  <th scope="row">
                    <span className={styles.product}>
                      {line.pictureUrl && <img className={styles.picture} src={line.pictureUrl} alt="" />}
                      <span>
                        {line.title} ({line.sizeName})
                      </span>
                    </span>
                  </th>
                  <td data-label="Quantity">{line.quantity}</td>
                  <td data-label="Sent">{line.dispatched}</td>
                  <td data-label="Refunded">{line.refunded}</td>
                  <td data-label="Price each" className={styles.money}>
                    {formatPence(line.unitPrice)}
                  </td>
                  <td data-label="Total" className={styles.money}>
                    {formatPence(line.lineTotal)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Totals order={order} />
      </section>

      <section className={`${styles.panel} ${styles.blocks}`} aria-label="Addresses">
        <div>
          <h2>Billing address</h2>
          <address data-testid="billing-address">
            {order.billingAddress.lines.map((line, i) => (
              <span key={i}>
                {line}
                <br />
              </span>
            ))}
          </address>
        </div>
        {order.deliveryAddress && (
          <div>
            <h2>Delivery address</h2>
            <address data-testid="delivery-address">
              {order.deliveryAddress.lines.map((line, i) => (
                <span key={i}>
                  {line}
                  <br />
                </span>
              ))}
            </address>
          </div>
        )}
        {order.collectionPoint && (
          <div>
            <h2>Collect from</h2>
            <p data-testid="collection-point">
              {order.collectionPoint.method}
              <br />
              {order.collectionPoint.address}
            </p>
          </div>
        )}
      </section>

      <section className={styles.panel} aria-labelledby="order-fulfilments">
        <h2 id="order-fulfilments">{order.deliveryKind === 'collection' ? 'Collection' : 'Dispatches'}</h2>
        {order.fulfilments.length === 0 ? (
          <p>
            {order.payment.status === 'refunded'
              ? 'Nothing will be sent: this order was cancelled.'
              : 'Nothing has been sent yet. We will e-mail you when it is.'}
          </p>
        ) : (
          order.fulfilments.map((fulfilment, i) => <Fulfilment key={i} fulfilment={fulfilment} index={i + 1} />)
        )}
      </section>

      <section className={styles.panel} aria-labelledby="order-documents">
        <h2 id="order-documents">Invoice and credit notes</h2>
        <ul className={styles.documents}>
          <li>
            <a className="button" href={order.invoice.url} target="_blank" rel="noopener" data-testid="invoice-link">
              Download the VAT invoice{order.invoice.number ? ` ${order.invoice.number}` : ''} (PDF)
            </a>
          </li>
          {order.creditNotes.map((note) => (
            <li key={note.url}>
              <a className="button button-secondary" href={note.url} target="_blank" rel="noopener">
                Download credit note {note.number}
                {note.amount !== null ? ` for ${formatPence(note.amount)}` : ''} (PDF)
              </a>
            </li>
          ))}
        </ul>
      </section>

      {/* What the shopper can do now, each section asking the server what it allows. */}
      <CancelSection orderKey={orderKey} onChanged={changed} />
      <ReturnsSection
        orderKey={orderKey}
        {...(order.fulfilment.status === 'unfulfilled' && order.payment.status !== 'refunded'
          ? { notYetReceived: order.deliveryKind === 'collection' ? ('collection' as const) : ('delivery' as const) }
          : {})}
      />
    </>
  );
}

function Totals({ order }: { order: OrderPageView }) {
  const { totals } = order;
  return (
    <table className={styles.table} data-testid="order-totals">
      <caption>Totals</caption>
      <tbody>
        <tr>
          <th scope="row">Items</th>
          <td className={styles.money}>{formatPence(totals.items)}</td>
        </tr>
        {totals.discount > 0 && (
          <tr>
            <th scope="row">Discount{totals.voucherCode ? ` (${totals.voucherCode})` : ''}</th>
            <td className={styles.money}>-{formatPence(totals.discount)}</td>
          </tr>
        )}
        <tr>
          <th scope="row">{totals.deliveryMethod}</th>
          <td className={styles.money}>{formatPence(totals.delivery)}</td>
        </tr>
        <tr>
          <th scope="row">Total paid</th>
          <td className={styles.money}>
            <strong data-testid="total-paid">{formatPence(totals.totalPaid)}</strong>
          </td>
        </tr>
        <tr>
          <th scope="row">Of which VAT</th>
          <td className={styles.money}>{formatPence(totals.vat)}</td>
        </tr>
        {totals.refunded > 0 && (
          <tr>
            <th scope="row">Refunded so far</th>
            <td className={styles.money} data-testid="refunded">
              {formatPence(totals.refunded)}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

function Fulfilment({ fulfilment, index }: { fulfilment: OrderPageFulfilment; index: number }) {
  return (
    <article aria-labelledby={`fulfilment-${index}`}>
      <h3 id={`fulfilment-${index}`}>
        Dispatch {index}, {day(fulfilment.dispatchedAt)}
      </h3>
      <ul>
        {fulfilment.lines.map((line) => (
          <li key={line.orderLineId}>
            {line.quantity} × {line.title} ({line.sizeName})
          </li>
        ))}
      </ul>
      {fulfilment.untrackedService ? (
        <p>Sent by {fulfilment.untrackedService}, untracked.</p>
      ) : (
        <ul>
          {fulfilment.parcels.map((parcel) => (
            <li key={parcel.trackingNumber}>
              {parcel.carrier}, tracking number{' '}
              {parcel.trackingUrl ? (
                <a href={parcel.trackingUrl} target="_blank" rel="noopener noreferrer">
                  {parcel.trackingNumber}
                  <span className="visually-hidden"> (track this parcel at {parcel.carrier})</span>
                </a>
              ) : (
                parcel.trackingNumber
              )}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/** A link that opens no order: wrong, revoked or mistyped alike. */
function OrderLinkNotValid({ error }: { error: unknown }) {
  const limited = limitMessage(error);
  const notFound = error instanceof ApiRequestError && error.status === 404;
  return (
    <div className="container page">
      <PageMeta title="Order Not Found" />
      <h1 className="page-title">Order not found</h1>
      <p role="alert" data-testid="order-not-found">
        {limited ??
          (notFound
            ? 'This order link is not valid. It may have been mistyped, or replaced by a newer link: please use the latest link we e-mailed you.'
            : 'We could not load your order just now. Please try again in a moment.')}
      </p>
      <p>
        If you have an account, your orders are in <Link to="/account-home">My Account</Link>. Otherwise, please{' '}
        <Link to="/contact">contact us</Link> with your order number.
      </p>
    </div>
  );
}
