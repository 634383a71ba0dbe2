import { useEffect, useRef, type RefObject } from 'react';
import type { AddressDraft } from '../../../contract/basket.ts';
import { AddressFields } from './address-fields.tsx';
import styles from './checkout.module.css';
import { addressParts } from './review-blocks.tsx';
import type { DeliveryAddress } from './use-delivery-address.ts';

/** Delivery Address: the saved one, the confirmed one with Edit, or the form. */
export function DeliveryAddressSection({
  delivery,
  address,
  nextAfterConfirm,
}: {
  delivery: DeliveryAddress;
  /** The delivery address kept in the basket. */
  address: AddressDraft | null | undefined;
  /** Where the keyboard goes once the address is confirmed (the delivery options); else to Edit. */
  nextAfterConfirm: () => HTMLElement | null | undefined;
}) {
  const saved = delivery.savedDelivery;
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // Confirm Address and Edit take away the control just used: focus goes on to the next one
  // rather than dropping to the page's start.
  const focusNext = useRef<'after-confirm' | 'form' | undefined>(undefined);
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = undefined;
    if (next === 'after-confirm') (nextAfterConfirm() ?? editButton.current)?.focus();
    if (next === 'form') form.current?.querySelector<HTMLInputElement>('input:not([type="checkbox"])')?.focus();
    // Only when the address is confirmed or opened again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [delivery.confirmed]);

  async function confirm() {
    focusNext.current = 'after-confirm';
    if (!(await delivery.confirmAddress())) focusNext.current = undefined;
  }
  return (
    <section className={styles.panel} aria-labelledby="delivery-address">
      <h2 id="delivery-address">Delivery Address</h2>
      {saved && <SavedDeliveryAddress delivery={delivery} />}
      {saved && !delivery.useOther ? null : delivery.confirmed && address ? (
        <div className={styles.actions}>
          <address>{addressParts(address).join(', ')}</address>
          <button
            ref={editButton}
            type="button"
            className="button button-secondary"
            onClick={() => {
              focusNext.current = 'form';
              delivery.edit();
            }}
          >
            Edit
          </button>
        </div>
      ) : (
        <DeliveryAddressForm delivery={delivery} formRef={form} onConfirm={() => void confirm()} />
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

function DeliveryAddressForm({
  delivery,
  formRef,
  onConfirm,
}: {
  delivery: DeliveryAddress;
  formRef: RefObject<HTMLFormElement | null>;
  onConfirm: () => void;
}) {
  return (
    <form
      ref={formRef}
      noValidate
      aria-label="Delivery address"
      onSubmit={(event) => {
        event.preventDefault();
        onConfirm();
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
