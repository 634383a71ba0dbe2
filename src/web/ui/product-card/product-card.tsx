import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Product } from '../../../contract/catalog.ts';
import { messages } from '../../../contract/messages.ts';
import { addToCartError } from '../../lib/add-to-cart-rules.ts';
import { basketStore, stockDetailOf } from '../../lib/basket/basket-store.ts';
import { formatPence, highestReduction } from '../../lib/format.ts';
import { ProductImage } from '../product-image/product-image.tsx';
import { DiscountBadge, Price } from '../price/price.tsx';
import styles from './product-card.module.css';

type Stage = 'view' | 'choose' | 'added';

/**
 * A product in a grid (docs/rules.md#basket): view, then a choice panel (size or style when
 * there is more than one entry, and quantity), then "Added to Basket" with a link to the cart.
 */
export function ProductCard({ product, headingLevel = 3 }: { product: Product; headingLevel?: 2 | 3 }) {
  const [stage, setStage] = useState<Stage>('view');
  const [stockId, setStockId] = useState<number | undefined>(product.stocks[0]?.id);
  const [quantity, setQuantity] = useState('1');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const stock = product.stocks.find((s) => s.id === stockId);
  const cheapest = product.stocks.reduce<(typeof product.stocks)[number] | undefined>(
    (min, s) => (min === undefined || s.price < min.price ? s : min),
    undefined,
  );
  const shown = stage === 'choose' && stock ? stock : cheapest;
  const href = `/products/${encodeURIComponent(product.urlKey)}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  function confirm(event: FormEvent) {
    event.preventDefault();
    const problem = addToCartError(stock, quantity);
    setError(problem);
    if (problem || !stock) return;
    basketStore.add(stock.id, Number(quantity.trim()), stockDetailOf(product, stock));
    setStage('added');
  }

  function open() {
    setStockId(product.stocks[0]?.id);
    setQuantity('1');
    setError(undefined);
    setStage('choose');
  }

  return (
    <article className={styles.card} aria-labelledby={`${id}-title`}>
      <Link to={href} className={styles.imageLink} tabIndex={-1} aria-hidden="true">
        <ProductImage src={product.defaultImageUrl} alt="" className={styles.image} width={300} height={300} />
      </Link>
      <div className={styles.badge}>
        <DiscountBadge percent={highestReduction(product.stocks)} />
      </div>
      <div className={styles.body}>
        <Heading id={`${id}-title`} className={styles.title}>
          <Link to={href}>{product.title}</Link>
        </Heading>
        {shown && <Price price={shown.price} priceWithoutDiscount={shown.priceWithoutDiscount} />}

        {stage === 'view' && (
          <button type="button" className={`button ${styles.action}`} onClick={open} disabled={!cheapest}>
            Add to cart
          </button>
        )}

        {stage === 'choose' && (
          <form
            className={styles.choice}
            onSubmit={confirm}
            noValidate
            aria-label={`Add ${product.title} to the basket`}
          >
            {product.stocks.length > 1 && (
              <div className="field">
                <label htmlFor={`${id}-size`}>Size / Style</label>
                <select
                  id={`${id}-size`}
                  className="input"
                  value={stockId ?? ''}
                  onChange={(event) => {
                    const next = product.stocks.find((s) => s.id === Number(event.target.value));
                    setStockId(next?.id);
                    setError(addToCartError(next, quantity));
                  }}
                >
                  {product.stocks.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.productSizeName} - {formatPence(s.price)}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-qty`}>Quantity</label>
              <input
                id={`${id}-qty`}
                className="input"
                inputMode="numeric"
                autoComplete="off"
                value={quantity}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => {
                  // Checked on every edit (the spec's key-up, and pastes too).
                  setQuantity(event.target.value);
                  setError(addToCartError(stock, event.target.value));
                }}
              />
            </div>
            <p id={`${id}-error`} className="field-error" role="alert">
              {error ?? ''}
            </p>
            <div className={styles.buttons}>
              <button type="submit" className="button">
                Confirm
              </button>
              <button type="button" className="button button-secondary" onClick={() => setStage('view')}>
                Cancel
              </button>
            </div>
          </form>
        )}

        {stage === 'added' && (
          <div className={styles.added} role="status">
            <p>{messages.addToCart.added}</p>
            <Link to="/shoppingcart" className="button button-secondary">
              VIEW CART
            </Link>
          </div>
        )}
      </div>
    </article>
  );
}
