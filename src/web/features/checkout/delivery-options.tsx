import type { Ref } from 'react';
import { messages } from '../../../contract/messages.ts';
import type { BasketState } from '../../lib/basket/basket-store.ts';
import { formatPence } from '../../lib/format.ts';
import styles from './checkout.module.css';

/** The delivery options the server priced for the basket, one to choose. */
export function DeliveryOptions({
  sectionRef,
  ...props
}: {
  basket: BasketState;
  optionMissing: boolean;
  onChoose: (deliveryMethodRateId: number) => void;
  /** The section, for the page to move the keyboard to an option. */
  sectionRef?: Ref<HTMLElement>;
}) {
  return (
    <section ref={sectionRef} className={styles.panel} aria-labelledby="delivery-options">
      <h2 id="delivery-options">Delivery Options</h2>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend>Please select how you would like your items delivered</legend>
        <ul className={styles.options}>
          {props.basket.priced?.deliveryMethodRates.map((method) => (
            <li key={method.id}>
              <label className={styles.option}>
                <input
                  type="radio"
                  name="delivery-option"
                  // The shopper's choice shows at once; the server's price follows.
                  checked={props.basket.deliveryMethodRateId === method.id}
                  onChange={() => props.onChoose(method.id)}
                />
                <strong>{formatPence(method.rate)}</strong> {method.name}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {props.optionMissing && (
        <p className="field-error" role="alert">
          {messages.address.deliveryOption}
        </p>
      )}
    </section>
  );
}
