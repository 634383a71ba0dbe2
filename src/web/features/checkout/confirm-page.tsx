import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { basketStore, storageKeys } from '../../lib/basket/basket-store.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { orderStatusQueryOptions } from './api/order-status.ts';
import styles from './checkout.module.css';
import { CheckoutProgress } from './progress.tsx';
import { endedUnpaid, isOneOf } from '../../../contract/order-status.ts';
import { shownTransactionId } from '../../../contract/transaction-id.ts';

const POLL_MS = 2000;
const POLL_FOR_MS = 120_000;

/**
 * Checkout step 4 (docs/rules.md#checkout): ORDER COMPLETE with the provider's transaction id,
 * PAYMENT CANCELLED when the shopper cancelled at the provider, or TRANSACTION FAILED, from the
 * order's recorded payment state. While PayPal's notification is on
 * its way, the page says so and checks again.
 */
export default function ConfirmPage() {
  const navigate = useNavigate();
  const [orderCode] = useState(() => localStorage.getItem(storageKeys.orderCode));
  const [startedAt] = useState(() => Date.now());
  const status = useQuery({
    ...orderStatusQueryOptions(orderCode),
    refetchInterval: (query) =>
      query.state.data?.status === 'pending_payment' && Date.now() - startedAt < POLL_FOR_MS ? POLL_MS : false,
  });

  useEffect(() => {
    if (!orderCode || status.isError) void navigate('/', { replace: true });
  }, [orderCode, status.isError, navigate]);

  async function backToCart() {
    if (orderCode) await basketStore.restoreUnpaidOrder();
    void navigate('/shoppingcart');
  }

  const answer = status.data;
  const failed = answer !== undefined && isOneOf(answer.status, endedUnpaid);
  // The shopper's own Cancel at the provider is not a failed card, and is not called one.
  const cancelled = failed && answer.cancelledByShopper;
  // A failed payment puts the order's lines back in the basket straight away.
  useEffect(() => {
    if (failed) void basketStore.restoreUnpaidOrder();
  }, [failed]);
  return (
    <div className="container page">
      <PageMeta title="Order Confirmation" canonicalPath="/checkout-confirm" />
      <CheckoutProgress current={3} />
      <h1 className="page-title">Order Confirmation</h1>
      <div aria-live="polite">
        {!answer && <p role="status">Checking your payment…</p>}
        {answer?.status === 'paid' && (
          <section className={styles.panel} aria-labelledby="order-complete">
            <h2 id="order-complete">ORDER COMPLETE</h2>
            <p>
              Thank you for your order. Payment has been successfully taken and we are currently processing your order.
              You will receive an email confirmation with your order details shortly.
            </p>
            <p>
              Order number: <strong data-testid="order-number">{answer.orderNumber}</strong>
              <br />
              Transaction id:{' '}
              <strong data-testid="transaction-id">{shownTransactionId(answer.transactionId ?? '')}</strong>
            </p>
            {answer.orderPagePath && (
              <p>
                Your order's own page shows its progress and tracking, and has its invoice to download:{' '}
                <Link to={answer.orderPagePath} data-testid="order-page-link">
                  view order {answer.orderNumber}
                </Link>
                .
              </p>
            )}
            <Link to="/home" className="button">
              HOME
            </Link>
          </section>
        )}
        {cancelled && (
          <section className={styles.panel} aria-labelledby="payment-cancelled">
            <h2 id="payment-cancelled">PAYMENT CANCELLED</h2>
            <p>{messages.payment.cancelled}</p>
            <button type="button" className="button" onClick={() => void backToCart()}>
              BACK TO CART
            </button>
          </section>
        )}
        {failed && !cancelled && (
          <section className={styles.panel} aria-labelledby="transaction-failed">
            <h2 id="transaction-failed">TRANSACTION FAILED</h2>
            <p>{messages.payment.failed}</p>
            <button type="button" className="button" onClick={() => void backToCart()}>
              BACK TO CART
            </button>
          </section>
        )}
        {answer?.status === 'pending_payment' && (
          <section className={styles.panel} aria-labelledby="awaiting-payment">
            <h2 id="awaiting-payment">WAITING FOR YOUR PAYMENT</h2>
            <p>
              Order <strong data-testid="order-number">{answer.orderNumber}</strong> is reserved for you. We are waiting
              for the payment provider to confirm your payment; this page checks again by itself.
            </p>
            <div className={styles.actions}>
              <button type="button" className="button button-secondary" onClick={() => void status.refetch()}>
                Check again
              </button>
              <button type="button" className="button button-secondary" onClick={() => void backToCart()}>
                BACK TO CART
              </button>
            </div>
          </section>
        )}
      </div>
    </div>
  );
}
