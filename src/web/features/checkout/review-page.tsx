import { Link } from 'react-router';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { useTitles } from '../../lib/catalog-api.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { BasketNotice } from '../../ui/basket-notice/basket-notice.tsx';
import styles from './checkout.module.css';
import { PaymentHandoff } from './payment-handoff.tsx';
import { SecureCheckoutButton } from './secure-checkout-button.tsx';
import { PaymentMarks } from './payment-marks.tsx';
import { CheckoutProgress } from './progress.tsx';
import { AddressBlock, AppliedVouchers, ContactBlock, FinalSummary, ProductsTable } from './review-blocks.tsx';
import { useCheckoutGuard } from './use-checkout-guard.ts';
import { useSecureCheckout } from './use-secure-checkout.ts';
import { VoucherSection } from './voucher-section.tsx';

/** Checkout step 3 (docs/rules.md#checkout): everything once more, a voucher, and SECURE CHECKOUT. */
export default function ReviewPage() {
  useCheckoutGuard(
    (hasErrors, hasDelivery) => (hasErrors ? '/shopping-cart' : hasDelivery ? undefined : '/checkout-delivery'),
    true,
  );
  const basket = useBasket();
  const titles = useTitles();
  const { committing, commitProblem, handoff, secureCheckout } = useSecureCheckout();
  const priced = basket.priced;
  const guest = basket.guest;
  const title = titles.data?.find((t) => t.id === guest?.titleId)?.name ?? '';

  if (handoff) {
    return (
      <div className="container page">
        <PageMeta title="Review Your Order" canonicalPath="/checkout-review" />
        <PaymentHandoff orderCode={handoff.orderCode} orderNumber={handoff.orderNumber} />
      </div>
    );
  }

  return (
    <div className="container page">
      <PageMeta title="Review Your Order" canonicalPath="/checkout-review" />
      <CheckoutProgress current={2} />
      <h1 className="page-title">Review Order &amp; Payment</h1>
      <p>Please review your order and continue to payment.</p>
      <BasketNotice />
      {!priced ? (
        <p role="status">Checking your basket…</p>
      ) : (
        <div className={styles.layout}>
          <div>
            <section className={styles.panel} aria-labelledby="review-products">
              <h2 id="review-products">Your Products</h2>
              <ProductsTable lines={priced.items} />
              <AppliedVouchers priced={priced} />
            </section>
            <section className={`${styles.panel} ${styles.blocks}`} aria-label="Contact and delivery">
              <ContactBlock title={title} guest={guest} />
              <AddressBlock title="Billing Address" address={priced.billingAddress} />
              <AddressBlock title="Delivery Address" address={priced.deliveryAddress} />
              <div>
                <h3>Delivery Option</h3>
                <p>
                  {priced.deliveryPrice !== null && formatPence(priced.deliveryPrice)} {priced.deliveryMethodName}
                </p>
              </div>
            </section>
            <VoucherSection />
            <Link to="/checkout-delivery" className="button button-secondary">
              BACK
            </Link>
          </div>
          <div>
            <FinalSummary priced={priced} headingId="final-summary" />
            <section className={styles.panel} aria-labelledby="continue-heading" style={{ marginTop: '1rem' }}>
              <h2 id="continue-heading">CONTINUE TO PAYMENT</h2>
              <p>Reviewed your order?</p>
              <PaymentMarks />
              <SecureCheckoutButton onClick={() => void secureCheckout()} disabled={committing} />
              {commitProblem && (
                <p className="field-error" role="alert">
                  {commitProblem}
                </p>
              )}
            </section>
          </div>
        </div>
      )}
    </div>
  );
}
