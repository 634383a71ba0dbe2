import { useNavigate } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { basketStore, storageKeys } from '../../lib/basket/basket-store.ts';
import { PageMeta } from '../../lib/page-meta.tsx';

/**
 * Payment declined (docs/rules.md#pages-and-routes), also where PayPal's Cancel returns. BACK TO BASKET brings
 * the order's lines back into the basket so the shopper can try again.
 */
export default function PaymentDeclinedPage() {
  const navigate = useNavigate();
  async function backToBasket() {
    const orderCode = localStorage.getItem(storageKeys.orderCode);
    if (orderCode) await basketStore.restoreFromOrder(orderCode);
    void navigate('/shoppingcart');
  }
  return (
    <div className="container page">
      <PageMeta title="Payment Declined" />
      <h1 className="page-title">Payment Declined</h1>
      <p>{messages.payment.declined}</p>
      <button type="button" className="button" onClick={() => void backToBasket()}>
        BACK TO BASKET
      </button>
    </div>
  );
}
