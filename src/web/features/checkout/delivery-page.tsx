import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { basketStore, hasDeliveryChoice } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { BasketNotice } from '../../ui/basket-notice/basket-notice.tsx';
import styles from './checkout.module.css';
import { DeliveryAddressSection } from './delivery-address-section.tsx';
import { DeliveryOptions } from './delivery-options.tsx';
import { OrderSummary } from './order-summary.tsx';
import { CheckoutProgress } from './progress.tsx';
import { saveAndVerify, useDeliveryAddress } from './use-delivery-address.ts';
import { useCheckoutGuard } from './use-checkout-guard.ts';

/** Checkout step 2 (docs/rules.md#checkout): where to deliver, and how. */
export default function DeliveryPage() {
  useCheckoutGuard(undefined, true);
  const basket = useBasket();
  const navigate = useNavigate();
  const delivery = useDeliveryAddress(basket);
  const [optionMissing, setOptionMissing] = useState(false);
  const options = useRef<HTMLElement>(null);
  // After Confirm Address: the chosen delivery option, or the first, as a radio group is entered.
  const deliveryOption = () =>
    options.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked') ??
    options.current?.querySelector<HTMLInputElement>('input[type="radio"]');

  async function proceed() {
    const addressOk = await delivery.settle();
    // Ask the server once more, so a choice just made (or a price just changed) is what counts.
    await basketStore.verify().catch(() => undefined);
    const chosen = hasDeliveryChoice(basketStore.getSnapshot());
    setOptionMissing(!chosen);
    if (addressOk && chosen) void navigate('/checkout-review');
  }

  return (
    <div className="container page">
      <PageMeta title="Delivery Options" canonicalPath="/checkout-delivery" />
      <CheckoutProgress current={1} />
      <h1 className="page-title">Delivery Options</h1>
      <p>Please select your preferred Delivery option.</p>
      <BasketNotice />
      <div className={styles.layout}>
        <div>
          <DeliveryAddressSection
            delivery={delivery}
            address={basket.deliveryAddress}
            nextAfterConfirm={deliveryOption}
          />
          <DeliveryOptions
            sectionRef={options}
            basket={basket}
            optionMissing={optionMissing}
            onChoose={(deliveryMethodRateId) => {
              setOptionMissing(false);
              saveAndVerify({ deliveryMethodRateId });
            }}
          />
          <div className={styles.actions}>
            <Link to="/checkout-details" className="button button-secondary">
              BACK
            </Link>
            <button type="button" className="button" onClick={() => void proceed()}>
              Continue
            </button>
          </div>
        </div>
        <OrderSummary priced={basket.priced} showDelivery />
      </div>
    </div>
  );
}
