import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { addressSchema } from '../../../contract/basket.ts';
import { messages } from '../../../contract/messages.ts';
import { basketStore, hasDeliveryChoice, isCompleteAddress } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { useAccount } from '../../lib/account.ts';
import { useCountries } from '../../lib/catalog-api.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { AddressFields } from './address-fields.tsx';
import styles from './checkout.module.css';
import { OrderSummary } from './order-summary.tsx';
import { CheckoutProgress } from './progress.tsx';
import { useCheckoutGuard } from './use-checkout-guard.ts';

const deliverySchema = z.object({ deliveryAddress: addressSchema });
type DeliveryForm = z.input<typeof deliverySchema>;

const blank = { line1: '', line2: '', line3: '', postcode: '', townCity: '', countryId: undefined };

/** Checkout step 2 (docs/rules.md#checkout): where to deliver, and how. */
export default function DeliveryPage() {
  useCheckoutGuard();
  const basket = useBasket();
  const navigate = useNavigate();
  const countries = useCountries();
  const saved = basket.deliveryAddress;
  const [confirmed, setConfirmed] = useState(isCompleteAddress(saved));
  const [sameAsBilling, setSameAsBilling] = useState(false);
  const [optionMissing, setOptionMissing] = useState(false);
  const form = useForm<DeliveryForm>({
    resolver: zodResolver(deliverySchema),
    mode: 'onTouched',
    defaultValues: {
      deliveryAddress: isCompleteAddress(saved)
        ? { ...blank, ...saved, countryId: saved?.countryId ?? undefined }
        : blank,
    },
  });
  const { errors } = form.formState;
  const priced = basket.priced;
  const countryName = (id: number | null | undefined) => countries.data?.find((c) => c.id === id)?.name ?? '';

  /** Changing the country or the option re-prices the basket (docs/rules.md#checkout). */
  function saveAndVerify(changes: Parameters<typeof basketStore.update>[0]) {
    basketStore.update(changes);
    void basketStore.verify().catch(() => undefined);
  }

  function copyBilling(checked: boolean) {
    setSameAsBilling(checked);
    const address = checked
      ? { ...blank, ...basket.billingAddress, countryId: basket.billingAddress?.countryId ?? undefined }
      : blank;
    form.reset({ deliveryAddress: address });
    if (address.countryId)
      saveAndVerify({ deliveryAddress: { ...address, countryName: countryName(address.countryId) } });
  }

  async function confirmAddress(): Promise<boolean> {
    const valid = await form.trigger('deliveryAddress');
    const address = form.getValues('deliveryAddress');
    if (!valid || !address.countryId) return false;
    saveAndVerify({ deliveryAddress: { ...address, countryName: countryName(address.countryId) } });
    setConfirmed(true);
    return true;
  }

  async function proceed() {
    // A registered customer who keeps their saved delivery address has nothing more to fill in.
    const savedChosen = hasSaved && !useOther;
    if (savedChosen && !confirmed) chooseSavedAddress();
    const addressOk = savedChosen || confirmed || (await confirmAddress());
    // Ask the server once more, so a choice just made (or a price just changed) is what counts.
    await basketStore.verify().catch(() => undefined);
    const chosen = hasDeliveryChoice(basketStore.getSnapshot());
    setOptionMissing(!chosen);
    if (addressOk && chosen) void navigate('/checkout-review');
  }

  const account = useAccount();
  const savedDelivery = account.data?.deliveryAddress;
  const hasSaved = Boolean(
    savedDelivery?.line1 && savedDelivery.postcode && savedDelivery.townCity && savedDelivery.countryId,
  );
  const [useOther, setUseOther] = useState(false);

  function chooseSavedAddress() {
    if (!savedDelivery) return;
    saveAndVerify({ deliveryAddress: { ...savedDelivery, countryName: countryName(savedDelivery.countryId) } });
    setConfirmed(true);
  }

  const address = basket.deliveryAddress;
  return (
    <div className="container page">
      <PageMeta title="Delivery Options" canonicalPath="/checkout-delivery" />
      <CheckoutProgress current={1} />
      <h1 className="page-title">Delivery Options</h1>
      <p>Please select your preferred Delivery option.</p>
      <div className={styles.layout}>
        <div>
          <section className={styles.panel} aria-labelledby="delivery-address">
            <h2 id="delivery-address">Delivery Address</h2>
            {hasSaved && savedDelivery && (
              <div>
                <h3>Saved Delivery Address</h3>
                <address data-testid="saved-delivery">
                  {[
                    savedDelivery.line1,
                    savedDelivery.line2,
                    savedDelivery.line3,
                    savedDelivery.townCity,
                    savedDelivery.postcode,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </address>
                <label className={styles.option}>
                  <input
                    type="checkbox"
                    checked={useOther}
                    onChange={(event) => {
                      setUseOther(event.target.checked);
                      if (event.target.checked) setConfirmed(false);
                    }}
                  />
                  Use Other Delivery Address
                </label>
                {!useOther && (
                  <button type="button" className="button button-secondary" onClick={chooseSavedAddress}>
                    Deliver to this address
                  </button>
                )}
              </div>
            )}
            {hasSaved && !useOther ? null : confirmed && address ? (
              <div className={styles.actions}>
                <address>
                  {[
                    address.line1,
                    address.line2,
                    address.line3,
                    address.townCity,
                    address.postcode?.toUpperCase(),
                    address.countryName,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </address>
                <button type="button" className="button button-secondary" onClick={() => setConfirmed(false)}>
                  Edit
                </button>
              </div>
            ) : (
              <form
                noValidate
                aria-label="Delivery address"
                onSubmit={(event) => {
                  event.preventDefault();
                  void confirmAddress();
                }}
              >
                <label className={styles.option}>
                  <input
                    type="checkbox"
                    checked={sameAsBilling}
                    onChange={(event) => copyBilling(event.target.checked)}
                  />
                  Same as Billing Address
                </label>
                <AddressFields
                  prefix="deliveryAddress"
                  register={form.register}
                  errors={errors.deliveryAddress}
                  countries={countries.data ?? []}
                  onCountryChange={(countryId) =>
                    saveAndVerify({
                      deliveryAddress: {
                        ...form.getValues('deliveryAddress'),
                        countryId,
                        countryName: countryName(countryId),
                      },
                    })
                  }
                />
                <p>
                  <button type="submit" className="button button-secondary">
                    Confirm Address
                  </button>
                </p>
              </form>
            )}
          </section>
          <section className={styles.panel} aria-labelledby="delivery-options">
            <h2 id="delivery-options">Delivery Options</h2>
            <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
              <legend>Please select how you would like your items delivered</legend>
              <ul className={styles.options}>
                {priced?.deliveryMethodRates.map((method) => (
                  <li key={method.id}>
                    <label className={styles.option}>
                      <input
                        type="radio"
                        name="delivery-option"
                        // The shopper's choice shows at once; the server's price follows.
                        checked={basket.deliveryMethodRateId === method.id}
                        onChange={() => {
                          setOptionMissing(false);
                          saveAndVerify({ deliveryMethodRateId: method.id });
                        }}
                      />
                      <strong>{formatPence(method.rate)}</strong> {method.name}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
            {optionMissing && (
              <p className="field-error" role="alert">
                {messages.address.deliveryOption}
              </p>
            )}
          </section>
          <div className={styles.actions}>
            <Link to="/checkout-details" className="button button-secondary">
              BACK
            </Link>
            <button type="button" className="button" onClick={() => void proceed()}>
              Continue
            </button>
          </div>
        </div>
        <OrderSummary priced={priced} showDelivery />
      </div>
    </div>
  );
}
