import { Link } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { basketStore, basketSummary } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';

/**
 * The basket as the client holds it. The full cart of spec section 2.7 (quantity edits verified by
 * the server, UPDATE BASKET, per-line messages, checkout) arrives with the checkout issue.
 */
export default function CartPage() {
  const basket = useBasket();
  const { count, total } = basketSummary(basket);
  return (
    <div className="container page">
      <PageMeta title="Your Cart" canonicalPath="/shoppingcart" />
      <h1 className="page-title">Your Cart</h1>
      {basket.items.length === 0 ? (
        <p>{messages.cart.empty}</p>
      ) : (
        <>
          <ul aria-label="Basket lines">
            {basket.items.map((item) => {
              const detail = basket.details[item.productStockId];
              return (
                <li key={item.productStockId}>
                  {detail ? `${detail.productTitle} (${detail.productSizeName})` : 'Loading…'} × {item.requestedQty}
                  {detail && ` = ${formatPence(detail.price * item.requestedQty)}`}{' '}
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={() => basketStore.remove(item.productStockId)}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ul>
          <p>
            <strong>SUMMARY:</strong> {count} Items, {formatPence(total)}
          </p>
        </>
      )}
      <Link to="/search" className="button button-secondary">
        CONTINUE SHOPPING
      </Link>
    </div>
  );
}
