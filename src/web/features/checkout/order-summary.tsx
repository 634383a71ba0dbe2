import type { ReactNode } from 'react';
import type { PricedBasket } from '../../../contract/basket.ts';
import { formatPence } from '../../lib/format.ts';
import styles from './checkout.module.css';

/** The side summary: item count and total, delivery when chosen, and the total to pay. */
export function OrderSummary(props: {
  priced: PricedBasket | undefined;
  showDelivery?: boolean;
  children?: ReactNode;
}) {
  const { priced } = props;
  return (
    <aside className={styles.summary} aria-labelledby="checkout-summary">
      <h2 id="checkout-summary">Summary</h2>
      {priced ? (
        <dl>
          <div>
            <dt>{priced.itemCount} Items</dt>
            <dd>{formatPence(priced.itemsTotal)}</dd>
          </div>
          {priced.discountAmount > 0 && (
            <div>
              <dt>Discount</dt>
              <dd>-{formatPence(priced.discountAmount)}</dd>
            </div>
          )}
          {props.showDelivery && (
            <div>
              <dt>Delivery</dt>
              <dd>{priced.deliveryPrice === null ? 'Not chosen' : formatPence(priced.deliveryPrice)}</dd>
            </div>
          )}
          <div className={styles.summaryTotal}>
            <dt>TOTAL</dt>
            <dd>
              {formatPence(
                props.showDelivery ? priced.totalPriceIncludingDelivery : priced.totalPriceExcludingDelivery,
              )}
            </dd>
          </div>
        </dl>
      ) : (
        <p role="status">Checking your basket…</p>
      )}
      {props.children}
    </aside>
  );
}
