import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { addressSchema, guestSchema } from '../../../contract/basket.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { useAccount } from '../../lib/account.ts';
import { useCountries, useTitles } from '../../lib/catalog-api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { AddressFields } from './address-fields.tsx';
import styles from './checkout.module.css';
import { OrderSummary } from './order-summary.tsx';
import { CheckoutProgress } from './progress.tsx';
import { useCheckoutGuard } from './use-checkout-guard.ts';

const detailsSchema = z.object({ guest: guestSchema, billingAddress: addressSchema });
type Details = z.input<typeof detailsSchema>;

/** Checkout step 1 (docs/rules.md#checkout): who the order is for and the billing address. */
export default function DetailsPage() {
  useCheckoutGuard();
  const basket = useBasket();
  const navigate = useNavigate();
  const titles = useTitles();
  const countries = useCountries();
  const form = useForm<Details>({
    resolver: zodResolver(detailsSchema),
    mode: 'onTouched',
    defaultValues: {
      guest: {
        titleId: basket.guest?.titleId ?? undefined,
        firstname: basket.guest?.firstname ?? '',
        lastname: basket.guest?.lastname ?? '',
        email: basket.guest?.email ?? '',
        contactNumber: basket.guest?.contactNumber ?? '',
      },
      billingAddress: {
        line1: basket.billingAddress?.line1 ?? '',
        line2: basket.billingAddress?.line2 ?? '',
        line3: basket.billingAddress?.line3 ?? '',
        postcode: basket.billingAddress?.postcode ?? '',
        townCity: basket.billingAddress?.townCity ?? '',
        // docs/rules.md#checkout: an existing billing address pre-fills the country.
        countryId: basket.billingAddress?.countryId ?? undefined,
      },
    },
  });
  const { errors } = form.formState;
  const account = useAccount();
  const saved = account.data;
  const savedBilling = saved?.billingAddress.line1 && saved.billingAddress.countryId ? saved.billingAddress : undefined;
  const [otherBilling, setOtherBilling] = useState(false);

  // docs/rules.md#checkout: a registered customer's details are filled in, their saved billing address used.
  useEffect(() => {
    if (!saved || basketStore.getSnapshot().guest?.firstname) return;
    form.reset({
      guest: {
        titleId: saved.titleId,
        firstname: saved.firstname,
        lastname: saved.lastname,
        email: saved.email,
        contactNumber: saved.contactNumber,
      },
      billingAddress: {
        line1: saved.billingAddress.line1 ?? '',
        line2: saved.billingAddress.line2 ?? '',
        line3: saved.billingAddress.line3 ?? '',
        postcode: saved.billingAddress.postcode ?? '',
        townCity: saved.billingAddress.townCity ?? '',
        countryId: saved.billingAddress.countryId ?? undefined,
      },
    });
  }, [saved, form]);
  const guestFields = [
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'firstname', label: 'First Name', type: 'text', autoComplete: 'given-name' },
    { name: 'lastname', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
    { name: 'contactNumber', label: 'Contact Number', type: 'tel', autoComplete: 'tel' },
  ] as const;

  const next = form.handleSubmit((values) => {
    const countryName = countries.data?.find((c) => c.id === values.billingAddress.countryId)?.name ?? '';
    basketStore.update({ guest: values.guest, billingAddress: { ...values.billingAddress, countryName } });
    void navigate('/checkout-delivery');
  });

  return (
    <div className="container page">
      <PageMeta title="Order Delivery Details" canonicalPath="/checkout-details" />
      <CheckoutProgress current={0} />
      <h1 className="page-title">Your Details</h1>
      <form noValidate onSubmit={next} className={styles.layout} aria-label="Your details">
        <div>
          <section className={styles.panel} aria-labelledby="personal-details">
            <h2 id="personal-details">Personal Details</h2>
            <p>Please provide your name and the delivery address for this order.</p>
            <div className={styles.fields}>
              <div className="field">
                <label htmlFor="guest-title">Title</label>
                <select
                  id="guest-title"
                  className="input"
                  autoComplete="honorific-prefix"
                  aria-invalid={errors.guest?.titleId ? true : undefined}
                  aria-describedby={errors.guest?.titleId ? 'guest-title-error' : undefined}
                  {...form.register('guest.titleId', { valueAsNumber: true })}
                >
                  <option value="">Select a title</option>
                  {titles.data?.map((title) => (
                    <option key={title.id} value={title.id}>
                      {title.name}
                    </option>
                  ))}
                </select>
                {errors.guest?.titleId && (
                  <p id="guest-title-error" className="field-error">
                    {errors.guest.titleId.message}
                  </p>
                )}
              </div>
              {guestFields.map((field) => {
                const error = errors.guest?.[field.name]?.message;
                return (
                  <div className="field" key={field.name}>
                    <label htmlFor={`guest-${field.name}`}>{field.label}</label>
                    <input
                      id={`guest-${field.name}`}
                      className="input"
                      type={field.type}
                      autoComplete={field.autoComplete}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `guest-${field.name}-error` : undefined}
                      {...form.register(`guest.${field.name}`)}
                    />
                    {error && (
                      <p id={`guest-${field.name}-error`} className="field-error">
                        {error}
                      </p>
                    )}
                  </div>
                );
              })}
            </div>
          </section>
          <section className={styles.panel} aria-labelledby="billing-address">
            <h2 id="billing-address">Billing Address</h2>
            {savedBilling && (
              <>
                {!otherBilling && (
                  <address data-testid="saved-billing">
                    {[savedBilling.line1, savedBilling.line2, savedBilling.townCity, savedBilling.postcode]
                      .filter(Boolean)
                      .join(', ')}
                  </address>
                )}
                <label className={styles.option}>
                  <input
                    type="checkbox"
                    checked={otherBilling}
                    onChange={(event) => {
                      setOtherBilling(event.target.checked);
                      if (event.target.checked) {
                        for (const field of ['line1', 'line2', 'line3', 'postcode', 'townCity'] as const)
                          form.setValue(`billingAddress.${field}`, '');
                      }
                    }}
                  />
                  Use Other Billing Address
                </label>
              </>
            )}
            <div hidden={Boolean(savedBilling) && !otherBilling}>
              <AddressFields
                prefix="billingAddress"
                register={form.register}
                errors={errors.billingAddress}
                countries={countries.data ?? []}
              />
            </div>
          </section>
        </div>
        <OrderSummary priced={basket.priced}>
          <button type="submit" className="button">
            NEXT
          </button>
        </OrderSummary>
      </form>
    </div>
  );
}
