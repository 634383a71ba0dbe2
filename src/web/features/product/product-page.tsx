import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Product } from '../../../contract/catalog.ts';
import { messages } from '../../../contract/messages.ts';
import { MADE_TO_ORDER_NOTE } from '../../../contract/made-to-order.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { ProductGrid } from '../../ui/product-grid/product-grid.tsx';
import { DiscountBadge, Price } from '../../ui/price/price.tsx';
import { StockChoiceFields } from '../../ui/stock-choice/stock-choice-fields.tsx';
import { useStockChoice } from '../../ui/stock-choice/use-stock-choice.ts';
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
  // An old URL key answers with the product under its new one (a 301): the address follows.
  const movedTo = product.data && !/^\d+$/.test(key) && product.data.urlKey !== key ? product.data.urlKey : undefined;
  useEffect(() => {
    if (movedTo) void navigate(`/products/${encodeURIComponent(movedTo)}`, { replace: true });
  }, [movedTo, navigate]);

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
  const choice = useStockChoice(product);
  const [added, setAdded] = useState(false);
  const related = useRelatedProducts(product.id);
  const id = useId();
  const stock = choice.stock;
  // Every size sold out: nothing to add, so no form (it could only answer "Only 0 items in stock").
  const buyable = product.stocks.some((s) => s.stock > 0);

  function add(event: FormEvent) {
    event.preventDefault();
    setAdded(choice.add());
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
          {product.madeToOrder && <p className={styles.madeToOrder}>{MADE_TO_ORDER_NOTE}</p>}
          {buyable && (
            <form className={styles.buy} onSubmit={add} noValidate>
              <StockChoiceFields
                id={id}
                variant="page"
                stocks={product.stocks}
                choice={choice}
                quantityClassName={styles.quantity}
                onEdit={() => setAdded(false)}
              />
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
          )}
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
