import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { refusalMessages } from '../../../contract/error-codes.ts';
import { messages } from '../../../contract/messages.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { useTitles } from '../../lib/catalog-api.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import styles from './checkout.module.css';
import { PaymentHandoff } from './payment-handoff.tsx';
import { commitProblemText } from './commit-problem.ts';
import { CheckoutProgress } from './progress.tsx';
import { AddressBlock, ContactBlock, ProductsTable } from './review-blocks.tsx';
import { useCheckoutGuard } from './use-checkout-guard.ts';

/** Checkout step 3 (docs/rules.md#checkout): everything once more, a voucher, and SECURE CHECKOUT. */
export default function ReviewPage() {
  useCheckoutGuard((hasErrors, hasDelivery) =>
    hasErrors ? '/shopping-cart' : hasDelivery ? undefined : '/checkout-delivery',
  );
  const basket = useBasket();
  const navigate = useNavigate();
  const titles = useTitles();
  const [voucher, setVoucher] = useState('');
  const [voucherMessage, setVoucherMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const [committing, setCommitting] = useState(false);
  const [commitProblem, setCommitProblem] = useState<string | undefined>();
  const [handoff, setHandoff] = useState<{ orderCode: string; orderNumber: number } | undefined>();
  const priced = basket.priced;
  const guest = basket.guest;
  const title = titles.data?.find((t) => t.id === guest?.titleId)?.name ?? '';

  async function applyVoucher(event: FormEvent) {
    event.preventDefault();
    const code = voucher.trim();
    if (!code) return;
    setVoucher('');
    try {
      const result = await basketStore.verify({ voucherCodeAttempt: code });
      const outcome = result.lastVoucherOutcome ?? 2;
      setVoucherMessage({ ok: outcome === 1, text: messages.voucher[outcome] ?? messages.voucher[2] ?? '' });
    } catch (error) {
      const limited = error instanceof ApiRequestError && error.status === 429;
      setVoucherMessage({ ok: false, text: limited ? refusalMessages.tooManyAttempts : (messages.voucher[2] ?? '') });
    }
  }

  async function secureCheckout() {
    setCommitting(true);
    setCommitProblem(undefined);
    try {
      const result = await basketStore.commit();
      if (result.ok) setHandoff({ orderCode: result.orderCode, orderNumber: result.orderNumber });
      else void navigate('/shopping-cart');
    } catch (error) {
      setCommitProblem(commitProblemText(error));
    } finally {
      setCommitting(false);
    }
  }

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
      {!priced ? (
        <p role="status">Checking your basket…</p>
      ) : (
        <div className={styles.layout}>
          <div>
            <section className={styles.panel} aria-labelledby="review-products">
              <h2 id="review-products">Your Products</h2>
              <ProductsTable lines={priced.items} />
              {priced.appliedVouchers.length > 0 && (
                <p>
                  Discount Code Applied: <strong>{priced.appliedVouchers.map((v) => v.code).join(', ')}</strong>
                </p>
              )}
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
            <section className={styles.panel} aria-labelledby="voucher-heading">
              <h2 id="voucher-heading">Voucher Code</h2>
              <form className={styles.actions} onSubmit={applyVoucher} noValidate>
                <label htmlFor="voucher-code">If you have a discount code please enter it below.</label>
                <input
                  id="voucher-code"
                  className="input"
                  value={voucher}
                  maxLength={40}
                  autoComplete="off"
                  onChange={(e) => setVoucher(e.target.value)}
                />
                <button type="submit" className="button button-secondary">
                  Apply
                </button>
              </form>
              <p role="status" className={voucherMessage?.ok ? styles.success : 'field-error'}>
                {voucherMessage?.text ?? ''}
              </p>
            </section>
            <Link to="/checkout-delivery" className="button button-secondary">
              BACK
            </Link>
          </div>
          <div>
            <aside className={styles.summary} aria-labelledby="final-summary">
              <h2 id="final-summary">FINAL SUMMARY</h2>
              <dl>
                <div>
                  <dt>{priced.itemCount} Items</dt>
                  <dd>{formatPence(priced.itemsTotal)}</dd>
                </div>
                <div>
                  <dt>Delivery</dt>
                  <dd>{formatPence(priced.deliveryPrice ?? 0)}</dd>
                </div>
                <div>
                  <dt>VAT (included)</dt>
                  <dd>{formatPence(priced.totalVat)}</dd>
                </div>
                <div>
                  <dt>Discount</dt>
                  <dd>-{formatPence(priced.discountAmount)}</dd>
                </div>
                <div className={styles.summaryTotal}>
                  <dt>TOTAL</dt>
                  <dd>{formatPence(priced.totalPriceIncludingDelivery)}</dd>
                </div>
              </dl>
            </aside>
            <section className={styles.panel} aria-labelledby="continue-heading" style={{ marginTop: '1rem' }}>
              <h2 id="continue-heading">CONTINUE TO PAYMENT</h2>
              <p>Reviewed your order?</p>
              <button type="button" className="button" onClick={() => void secureCheckout()} disabled={committing}>
                <span aria-hidden="true">🔒</span> SECURE CHECKOUT
              </button>
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
