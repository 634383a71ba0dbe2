import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { PricedBasket } from '../../../contract/basket.ts';
import { storageKeys } from '../../lib/basket/basket-store.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { orderStatusQueryOptions } from './api/order-status.ts';
import { recoverBasketQueryOptions } from './api/recover-basket.ts';
import styles from './checkout.module.css';
import { PaymentHandoff } from './payment-handoff.tsx';
import { SecureCheckoutButton } from './secure-checkout-button.tsx';
import { PaymentMarks } from './payment-marks.tsx';
import { AddressBlock, AppliedVouchers, ContactBlock, FinalSummary, ProductsTable } from './review-blocks.tsx';

/**
 * Order recovery (docs/rules.md#checkout): an unpaid order, found by the code in its link,
 * shown as a review so the shopper can go to payment again; a paid order says so. Any other
 * failure to load goes to /.
 */
export default function RecoveryPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [paying, setPaying] = useState(false);
  const order = useQuery(recoverBasketQueryOptions(id));
  // An order that cannot be recovered may have been paid: say so, with no more
  // than the order status page shows.
  const status = useQuery({ ...orderStatusQueryOptions(order.isError ? id : null), retry: false });
  const paid = status.data?.status === 'paid' ? status.data : undefined;

  useEffect(() => {
    if (order.isError && (status.isError || (status.data && status.data.status !== 'paid')))
      void navigate('/', { replace: true });
  }, [order.isError, status.isError, status.data, navigate]);

  function secureCheckout(basket: PricedBasket) {
    // The order exists already: keep its number and code for the payment and its return.
    localStorage.setItem(storageKeys.orderNumber, String(basket.orderNumber));
    localStorage.setItem(storageKeys.orderCode, basket.orderCode ?? '');
    setPaying(true);
  }

  const basket = order.data;
  if (paying && basket?.orderCode && basket.orderNumber) {
    return (
      <div className="container page">
        <PageMeta title="Order Recovery" />
        <PaymentHandoff orderCode={basket.orderCode} orderNumber={basket.orderNumber} />
      </div>
    );
  }
  if (paid) {
    return (
      <div className="container page">
        <PageMeta title="Order Recovery" />
        <h1 className="page-title">Order Recovery</h1>
        <section className={styles.panel} aria-labelledby="order-paid">
          <h2 id="order-paid">This order has been paid</h2>
          <p>Thank you: there is nothing more to pay for this order.</p>
          <p>
            Order number: <strong data-testid="paid-order-number">{paid.orderNumber}</strong>
            <br />
            Status: <strong data-testid="paid-order-status">Paid</strong>
          </p>
          <Link to="/home" className="button">
            HOME
          </Link>
        </section>
      </div>
    );
  }
  return (
    <div className="container page">
      <PageMeta title="Order Recovery" />
      <h1 className="page-title">Order Recovery</h1>
      {!basket ? (
        <p role="status">Finding your order…</p>
      ) : (
        <div className={styles.layout}>
          <div>
            <p>
              Order <strong data-testid="recovered-order-number">{basket.orderNumber}</strong> is waiting for payment.
            </p>
            <section className={styles.panel} aria-labelledby="recovery-products">
              <h2 id="recovery-products">Your Products</h2>
              <ProductsTable lines={basket.items} />
              <AppliedVouchers priced={basket} />
            </section>
            <section className={`${styles.panel} ${styles.blocks}`} aria-label="Contact and delivery">
              <ContactBlock guest={basket.guest} />
              <AddressBlock title="Billing Address" address={basket.billingAddress} />
              <AddressBlock title="Delivery Address" address={basket.deliveryAddress} />
              <div>
                <h3>Delivery Option</h3>
                <p>
                  {formatPence(basket.deliveryPrice ?? 0)} {basket.deliveryMethodName}
                </p>
              </div>
            </section>
          </div>
          <div>
            <FinalSummary priced={basket} headingId="recovery-summary" />
            <section className={styles.panel} aria-labelledby="recovery-continue" style={{ marginTop: '1rem' }}>
              <h2 id="recovery-continue">CONTINUE TO PAYMENT</h2>
              <PaymentMarks />
              <SecureCheckoutButton onClick={() => secureCheckout(basket)} />
            </section>
          </div>
        </div>
      )}
    </div>
  );
}
