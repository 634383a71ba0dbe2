import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { PageMeta } from '../../lib/page-meta.tsx';

/**
 * Payment declined (docs/rules.md#pages-and-routes), also where PayPal's Cancel returns. The
 * order's lines come back into the basket on arrival, whichever way the shopper leaves (HOME, the
 * cart, BACK TO BASKET), as the design promises after a failed payment.
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
      <PageMeta title="Payment Declined" />
      <h1 className="page-title">Payment Declined</h1>
      <p>{messages.payment.declined}</p>
      <button type="button" className="button" onClick={() => void backToBasket()}>
        BACK TO BASKET
      </button>
    </div>
  );
}
