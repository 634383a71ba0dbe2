import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { basketErrorCodes } from '../../../contract/basket-rules.ts';
import { messages } from '../../../contract/messages.ts';
import { basketStore, basketSummary } from '../../lib/basket/basket-store.ts';
import { lineMessage } from '../../lib/basket/line-messages.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { BasketNotice } from '../../ui/basket-notice/basket-notice.tsx';
import { ProductImage } from '../../ui/product-image/product-image.tsx';
import styles from './cart.module.css';

/**
 * The cart (docs/rules.md#basket): each line with its quantity box and Remove; UPDATE BASKET
 * applies the quantities (below 1 removes a line) and has the server check them; PROCEED TO
 * CHECKOUT only when the server finds nothing wrong.
 */
export default function CartPage() {
  const basket = useBasket();
  const navigate = useNavigate();
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [localErrors, setLocalErrors] = useState<Record<number, number>>({});
  const [checking, setChecking] = useState(basket.items.length > 0);

  useEffect(() => {
    if (basketStore.getSnapshot().items.length === 0) return;
    basketStore
      .verify()
      .catch(() => undefined)
      .finally(() => setChecking(false));
  }, []);

  const priced = basket.priced;
  const lineOf = (stockId: number) => priced?.items.find((line) => line.productStockId === stockId);
  // The header's pill counts the same (docs/rules.md#basket): lines the server refused count for nothing.
  const { count, total } = basketSummary(basket);
  const serverErrors = priced?.items.some((line) => line.hasError) ?? false;
  // A quantity typed wrong keeps the shopper here too, not only a line the server refused.
  const typedErrors = Object.keys(localErrors).length > 0;
  const canCheckout = Boolean(priced) && !serverErrors && !typedErrors && basket.items.length > 0 && !checking;

  async function update(event: FormEvent) {
    event.preventDefault();
    const next = new Map<number, number>();
    const errors: Record<number, number> = {};
    for (const item of basket.items) {
      const typed = quantities[item.productStockId];
      if (typed === undefined) continue;
      const trimmed = typed.trim();
      if (!/^-?\d+$/.test(trimmed)) errors[item.productStockId] = basketErrorCodes.invalidQuantity;
      else if (item.availableStock !== undefined && Number(trimmed) > item.availableStock) {
        errors[item.productStockId] = basketErrorCodes.notEnoughStock;
      } else next.set(item.productStockId, Number(trimmed));
    }
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    basketStore.setQuantities(next);
    setQuantities({});
    setChecking(true);
    try {
      await basketStore.verify();
    } catch {
      // docs/rules.md#basket: a failed verification is not shown; the next one may succeed.
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="container page">
      <PageMeta title="Your Cart" canonicalPath="/shoppingcart" />
      <h1 className="page-title">Your Cart</h1>
      <BasketNotice />
      {basket.items.length === 0 ? (
        <div className={styles.empty}>
          <p>{messages.cart.empty}</p>
          <Link to="/search" className="button">
            CONTINUE SHOPPING
          </Link>
        </div>
      ) : (
        <div className={styles.layout}>
          <form onSubmit={update} noValidate aria-label="Basket lines">
            <ul className={styles.lines}>
              {basket.items.map((item) => {
                const detail = basket.details[item.productStockId];
                const line = lineOf(item.productStockId);
                const localError = localErrors[item.productStockId];
                const message =
                  localError !== undefined
                    ? lineMessage(localError, item.availableStock ?? 0)
                    : line && lineMessage(line.errorCode, line.availableStock);
                const price = line?.price ?? detail?.price;
                const inputId = `qty-${item.productStockId}`;
                return (
                  <li key={item.productStockId} className={styles.line}>
                    <ProductImage src={detail?.imageUrl} alt="" width={96} height={96} className={styles.image} />
                    <div className={styles.lineInfo}>
                      <h2 className={styles.lineTitle}>
                        {detail ? <Link to={`/products/${detail.urlKey}`}>{detail.productTitle}</Link> : 'Loading…'}
                      </h2>
                      <p className={styles.size}>{detail?.productSizeName}</p>
                      <p>{price !== undefined ? formatPence(price) : ''}</p>
                      {message && (
                        <p className="field-error" role="alert" id={`${inputId}-error`}>
                          {message}
                        </p>
                      )}
                    </div>
                    <div className={styles.lineActions}>
                      <label htmlFor={inputId}>Quantity</label>
                      <input
                        id={inputId}
                        className={`input ${styles.qty}`}
                        inputMode="numeric"
                        value={quantities[item.productStockId] ?? String(item.requestedQty)}
                        aria-invalid={message ? true : undefined}
                        aria-describedby={message ? `${inputId}-error` : undefined}
                        onChange={(event) =>
                          setQuantities((q) => ({ ...q, [item.productStockId]: event.target.value }))
                        }
                      />
                      <p className={styles.lineTotal}>
                        {line?.hasError ? (
                          // docs/rules.md#basket: a line in error adds nothing to the summary's total.
                          messages.cart.notCounted
                        ) : (
                          <>
                            <span className="visually-hidden">Line total: </span>
                            {price !== undefined ? formatPence(price * item.requestedQty) : ''}
                          </>
                        )}
                      </p>
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => {
                          basketStore.remove(item.productStockId);
                          void basketStore.verify().catch(() => undefined);
                        }}
                      >
                        Remove<span className="visually-hidden"> {detail?.productTitle}</span>
                      </button>
                    </div>
                  </li>
                );
              })}
            </ul>
            <button type="submit" className="button button-secondary">
              UPDATE BASKET
            </button>
          </form>
          <aside className={styles.summary} aria-labelledby="cart-summary">
            <h2 id="cart-summary">SUMMARY</h2>
            <p>
              {count} Items
              <strong className={styles.total}>{formatPence(total)}</strong>
            </p>
            {canCheckout && (
              <button type="button" className="button" onClick={() => void navigate('/checkout-details')}>
                PROCEED TO CHECKOUT
              </button>
            )}
            {(serverErrors || typedErrors) && (
              <p className="field-error">Please correct the items marked above to check out.</p>
            )}
            <Link to="/search" className="button button-secondary">
              CONTINUE SHOPPING
            </Link>
          </aside>
        </div>
      )}
    </div>
  );
}
