import { formatPence } from '../../lib/format.ts';
import styles from './price.module.css';

/**
 * A price, with the price before discount struck through when there is one; "from £…" when it is
 * the lowest of several (a card whose sizes in stock differ in price).
 */
export function Price(props: { price: number; priceWithoutDiscount: number; large?: boolean; from?: boolean }) {
  const reduced = props.priceWithoutDiscount > props.price;
  return (
    <span className={`${styles.price} ${props.large ? styles.large : ''}`}>
      <span className={styles.now}>
        {props.from && <span className={styles.from}>from </span>}
        {formatPence(props.price)}
      </span>
      {reduced && (
        <s className={styles.was}>
          <span className="visually-hidden">was </span>
          {formatPence(props.priceWithoutDiscount)}
        </s>
      )}
    </span>
  );
}

/** The percent-off badge, shown only above 0 (docs/rules.md#prices-and-money). */
export function DiscountBadge({ percent }: { percent: number }) {
  if (percent <= 0) return null;
  return <span className={styles.badge}>{percent}% off</span>;
}
