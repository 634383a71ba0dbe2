import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { PageMeta } from '../../lib/page-meta.tsx';

/**
 * Where PayPal sends a shopper who cancels (its cancel address; the spec's /payment-declined,
 * docs/rules.md#pages-and-routes). Only a cancel comes here, so the page says the payment was
 * cancelled, not declined (docs/decisions/0003-storefront-choices.md). The order's lines come back
 * into the basket on arrival, whichever way the shopper leaves (HOME, the cart, BACK TO BASKET).
 */
export default function PaymentDeclinedPage() {
  const navigate = useNavigate();
  useEffect(() => {
    void basketStore.restoreUnpaidOrder();
  }, []);
  async function backToBasket() {
    await basketStore.restoreUnpaidOrder();
    void navigate('/shoppingcart');
  }
  return (
    <div className="container page">
      <PageMeta title="Payment Cancelled" />
      <h1 className="page-title">Payment Cancelled</h1>
      <p>{messages.payment.cancelled}</p>
      <button type="button" className="button" onClick={() => void backToBasket()}>
        BACK TO BASKET
      </button>
    </div>
  );
}
