import type { AddressDraft } from '../../../contract/basket.ts';
import { AddressFields } from './address-fields.tsx';
import styles from './checkout.module.css';
import { addressParts } from './review-blocks.tsx';
import type { DeliveryAddress } from './use-delivery-address.ts';

/** Delivery Address: the saved one, the confirmed one with Edit, or the form. */
export function DeliveryAddressSection({
  delivery,
  address,
}: {
  delivery: DeliveryAddress;
  /** The delivery address kept in the basket. */
  address: AddressDraft | null | undefined;
}) {
  const saved = delivery.savedDelivery;
  return (
    <section className={styles.panel} aria-labelledby="delivery-address">
      <h2 id="delivery-address">Delivery Address</h2>
      {saved && <SavedDeliveryAddress delivery={delivery} />}
      {saved && !delivery.useOther ? null : delivery.confirmed && address ? (
        <div className={styles.actions}>
          <address>{addressParts(address).join(', ')}</address>
          <button type="button" className="button button-secondary" onClick={delivery.edit}>
            Edit
          </button>
        </div>
      ) : (
        <DeliveryAddressForm delivery={delivery} />
      )}
    </section>
  );
}

function SavedDeliveryAddress({ delivery }: { delivery: DeliveryAddress }) {
  const saved = delivery.savedDelivery;
  if (!saved) return null;
  return (
    <div>
      <h3>Saved Delivery Address</h3>
      <address data-testid="saved-delivery">
        {[saved.line1, saved.line2, saved.line3, saved.townCity, saved.postcode].filter(Boolean).join(', ')}
      </address>
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={delivery.useOther}
          onChange={(event) => delivery.chooseOther(event.target.checked)}
        />
        Use Other Delivery Address
      </label>
      {!delivery.useOther && (
        <button type="button" className="button button-secondary" onClick={delivery.chooseSavedAddress}>
          Deliver to this address
        </button>
      )}
    </div>
  );
}

function DeliveryAddressForm({ delivery }: { delivery: DeliveryAddress }) {
  return (
    <form
      noValidate
      aria-label="Delivery address"
      onSubmit={(event) => {
        event.preventDefault();
        void delivery.confirmAddress();
      }}
    >
      <label className={styles.option}>
        <input
          type="checkbox"
          checked={delivery.sameAsBilling}
          onChange={(event) => delivery.copyBilling(event.target.checked)}
        />
        Same as Billing Address
      </label>
      <AddressFields
        prefix="deliveryAddress"
        register={delivery.form.register}
        errors={delivery.errors.deliveryAddress}
        countries={delivery.countries}
        onCountryChange={delivery.changeCountry}
      />
      <p>
        <button type="submit" className="button button-secondary">
          Confirm Address
        </button>
      </p>
    </form>
  );
}
