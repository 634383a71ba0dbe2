import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { storageKeys } from '../../lib/basket/basket-store.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import styles from './checkout.module.css';
import { CheckoutProgress } from './progress.tsx';

/**
 * Checkout step 4. The order is committed and its stock reserved; taking the payment (PayPal or
 * Opayo) and showing ORDER COMPLETE or TRANSACTION FAILED from its result arrive with the
 * payments issue. Without an order to show, the shopper goes home.
 */
export default function ConfirmPage() {
  const navigate = useNavigate();
  const [orderNumber] = useState(() => localStorage.getItem(storageKeys.orderNumber));
  useEffect(() => {
    if (!orderNumber) void navigate('/', { replace: true });
  }, [orderNumber, navigate]);
  if (!orderNumber) return null;
  return (
    <div className="container page">
      <PageMeta title="Order Confirmation" canonicalPath="/checkout-confirm" />
      <CheckoutProgress current={3} />
      <h1 className="page-title">Order Confirmation</h1>
      <section className={styles.panel} aria-labelledby="order-received">
        <h2 id="order-received">ORDER RECEIVED</h2>
        <p>
          Thank you. Your order number is <strong data-testid="order-number">{orderNumber}</strong>. Your items are
          reserved for you while the payment is completed.
        </p>
        <Link to="/home" className="button">
          HOME
        </Link>
      </section>
    </div>
  );
}
