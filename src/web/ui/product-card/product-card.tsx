import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Product } from '../../../contract/catalog.ts';
import { messages } from '../../../contract/messages.ts';
import { productCardImageSizes } from '../../../contract/photos.ts';
import { ProductPicture } from '../product-image/product-picture.tsx';
import { DiscountBadge, Price } from '../price/price.tsx';
import { StockChoiceFields } from '../stock-choice/stock-choice-fields.tsx';
import { useStockChoice } from '../stock-choice/use-stock-choice.ts';
import styles from './product-card.module.css';

type Stage = 'view' | 'choose' | 'added';
type Size = Product['stocks'][number];

/**
 * A product in a grid (docs/rules.md#basket): view, then a choice panel (size or style when
 * there is more than one entry, and quantity), then "Added to Basket" with a link to the cart.
 * Its price is the one the server chose (`cardPrice`: the cheapest size in stock, "from" when the
 * sizes in stock differ), then the chosen size's, then the added size's.
 */
export function ProductCard({
  product,
  headingLevel = 3,
  eager = false,
}: {
  product: Product;
  headingLevel?: 2 | 3;
  /** Fetch the picture at once rather than when it is scrolled to. */
  eager?: boolean;
}) {
  const [stage, setStage] = useState<Stage>('view');
  const [added, setAdded] = useState<Size | undefined>();
  const choice = useStockChoice(product);
  const id = useId();
  const addButton = useRef<HTMLButtonElement>(null);
  const viewCart = useRef<HTMLAnchorElement>(null);
  // The control that replaces the one just used takes the keyboard focus, which would otherwise
  // drop to the page's start: the choice's first field, VIEW CART, or Add to cart again.
  const focusAfter = useRef<Stage | undefined>(undefined);
  useEffect(() => {
    if (focusAfter.current !== stage) return;
    focusAfter.current = undefined;
    if (stage === 'choose') (document.getElementById(`${id}-size`) ?? document.getElementById(`${id}-qty`))?.focus();
    else if (stage === 'added') viewCart.current?.focus();
    else addButton.current?.focus();
  }, [stage, id]);

  function moveTo(next: Stage) {
    focusAfter.current = next;
    setStage(next);
  }
  const stock = choice.stock;
  const chosen = stage === 'choose' ? stock : stage === 'added' ? added : undefined;
  const shown = chosen ? { ...chosen, from: false } : product.cardPrice;
  // Nothing left in any size: the card says so rather than offering to add.
  const soldOut = product.stocks.length > 0 && product.stocks.every((s) => s.stock <= 0);
  const href = `/products/${encodeURIComponent(product.urlKey)}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  function confirm(event: FormEvent) {
    event.preventDefault();
    if (choice.add()) {
      setAdded(stock);
      moveTo('added');
      return;
    }
    // Refused: to the field the message is about (no size chosen, or the quantity).
    document.getElementById(choice.stock ? `${id}-qty` : `${id}-size`)?.focus();
  }

  function open() {
    choice.reset();
    moveTo('choose');
  }

  return (
    <article className={styles.card} aria-labelledby={`${id}-title`}>
      <Link to={href} className={styles.imageLink} tabIndex={-1} aria-hidden="true">
        <ProductPicture
          image={product.images[0] ?? { imageUrl: product.defaultImageUrl }}
          sizes={productCardImageSizes}
          alt=""
          className={styles.image}
          loading={eager ? 'eager' : 'lazy'}
          width={300}
          height={300}
        />
      </Link>
      <div className={styles.badge}>
        <DiscountBadge percent={product.cardPrice?.highestReduction ?? 0} />
      </div>
      <div className={styles.body}>
        <Heading id={`${id}-title`} className={styles.title}>
          <Link to={href}>{product.title}</Link>
        </Heading>
        {shown && <Price price={shown.price} priceWithoutDiscount={shown.priceWithoutDiscount} from={shown.from} />}

        {stage === 'view' &&
          (soldOut ? (
            <p className={`${styles.action} ${styles.soldOut}`}>{messages.addToCart.soldOut}</p>
          ) : (
            <button
              ref={addButton}
              type="button"
              className={`button ${styles.action}`}
              onClick={open}
              disabled={product.stocks.length === 0}
            >
              Add to cart
            </button>
          ))}

        {stage === 'choose' && (
          <form
            className={styles.choice}
            onSubmit={confirm}
            noValidate
            aria-label={`Add ${product.title} to the basket`}
          >
            <StockChoiceFields id={id} variant="card" stocks={product.stocks} choice={choice} />
            <div className={styles.buttons}>
              <button type="submit" className="button">
                Confirm
              </button>
              <button type="button" className="button button-secondary" onClick={() => moveTo('view')}>
                Cancel
              </button>
            </div>
          </form>
        )}

        {stage === 'added' && (
          <div className={styles.added} role="status">
            <p>{messages.addToCart.added}</p>
            {/* Which size, when there was a choice: the price above is that size's. */}
            {added && product.stocks.length > 1 && <p className={styles.addedSize}>{added.productSizeName}</p>}
            <Link ref={viewCart} to="/shoppingcart" className="button button-secondary">
              VIEW CART
            </Link>
          </div>
        )}
      </div>
    </article>
  );
}
