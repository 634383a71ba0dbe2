import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Product } from '../../../contract/catalog.ts';
import { messages } from '../../../contract/messages.ts';
import { addToCartError } from '../../lib/add-to-cart-rules.ts';
import { basketStore, stockDetailOf } from '../../lib/basket/basket-store.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { ProductGrid } from '../../ui/product-grid/product-grid.tsx';
import { DiscountBadge, Price } from '../../ui/price/price.tsx';
import { useProduct, useRelatedProducts } from './api/get-product.ts';
import { Gallery } from './gallery.tsx';
import styles from './product.module.css';

/** Product detail (docs/rules.md#pages-and-routes). An unknown product, or a failed load, goes to /search. */
export default function ProductPage() {
  const { key = '' } = useParams();
  const product = useProduct(key);
  const navigate = useNavigate();

  useEffect(() => {
    if (product.isError) void navigate('/search', { replace: true });
  }, [product.isError, navigate]);

  if (!product.data) {
    return (
      <div className="container page" role="status">
        <span className="visually-hidden">Loading…</span>
      </div>
    );
  }
  return <ProductDetail key={product.data.id} product={product.data} />;
}

function ProductDetail({ product }: { product: Product }) {
  const [stockId, setStockId] = useState(product.stocks[0]?.id);
  const [quantity, setQuantity] = useState('1');
  const [error, setError] = useState<string | undefined>();
  const [added, setAdded] = useState(false);
  const related = useRelatedProducts(product.id);
  const id = useId();
  const stock = product.stocks.find((s) => s.id === stockId);

  function add(event: FormEvent) {
    event.preventDefault();
    const problem = addToCartError(stock, quantity);
    setError(problem);
    setAdded(false);
    if (problem || !stock) return;
    basketStore.add(stock.id, Number(quantity.trim()), stockDetailOf(product, stock));
    setAdded(true);
  }

  return (
    <div className="container page">
      <PageMeta
        title={product.seoTitle}
        description={product.seoDescription}
        keywords={product.seoKeywords}
        canonicalPath={`/products/${encodeURIComponent(product.urlKey)}`}
      />
      <nav aria-label="Breadcrumb" className={styles.breadcrumb}>
        <Link to="/home">Home</Link> <span aria-hidden="true">›</span>{' '}
        <Link to={`/search?t=${product.productTypeId}`}>{product.productTypeName}</Link>
      </nav>
      <div className={styles.detail}>
        <Gallery product={product} />
        <div className={styles.info}>
          <h1 className="page-title">{product.title}</h1>
          <p className={styles.brand}>
            Brand: <Link to={`/search?b=${product.brandId}`}>{product.brandName}</Link>
          </p>
          {stock && (
            <div className={styles.priceRow}>
              <Price price={stock.price} priceWithoutDiscount={stock.priceWithoutDiscount} large />
              <DiscountBadge percent={stock.priceReduction} />
            </div>
          )}
          <p className={stock && stock.stock > 0 ? styles.inStock : styles.unavailable}>
            {stock && stock.stock > 0 ? 'In Stock' : 'Unavailable'}
          </p>
          <form className={styles.buy} onSubmit={add} noValidate>
            {product.stocks.length > 0 && (
              <div className="field">
                <label htmlFor={`${id}-size`}>STYLE/SIZE</label>
                <select
                  id={`${id}-size`}
                  className="input"
                  value={stockId ?? ''}
                  onChange={(event) => {
                    const next = product.stocks.find((s) => s.id === Number(event.target.value));
                    setStockId(next?.id);
                    setAdded(false);
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
                className={`input ${styles.quantity}`}
                inputMode="numeric"
                autoComplete="off"
                value={quantity}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-error`}
                onChange={(event) => {
                  // Checked on every edit (the spec's key-up, and pastes too).
                  setQuantity(event.target.value);
                  setAdded(false);
                  setError(addToCartError(stock, event.target.value));
                }}
              />
            </div>
            <p id={`${id}-error`} className="field-error" role="alert">
              {error ?? ''}
            </p>
            <button type="submit" className="button">
              ADD TO BASKET
            </button>
            <p role="status" className={styles.added}>
              {added && (
                <>
                  {messages.addToCart.productAdded} <Link to="/shoppingcart">View your basket</Link>
                </>
              )}
            </p>
          </form>
          <section aria-labelledby={`${id}-description`}>
            <h2 id={`${id}-description`} className={styles.subheading}>
              Description
            </h2>
            <p className={styles.description}>
              {product.description.split('\n').map((line, i, lines) => (
                <span key={i}>
                  {line}
                  {i < lines.length - 1 && <br />}
                </span>
              ))}
            </p>
          </section>
        </div>
      </div>
      {related.data && related.data.length > 0 && (
        <section className={styles.related} aria-labelledby={`${id}-related`}>
          <h2 id={`${id}-related`}>You may also be interested in</h2>
          <ProductGrid products={related.data} />
        </section>
      )}
    </div>
  );
}
