import { Link, useNavigate } from 'react-router';
import { messages } from '../../../contract/messages.ts';
import { useSignedInMark, useSignedInUser } from '../../lib/account.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { useBasket } from '../../lib/basket/use-basket.ts';
import { useCountries, useTitles } from '../../lib/catalog-api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { BasketNotice } from '../../ui/basket-notice/basket-notice.tsx';
import { BillingAddressSection } from './billing-address-section.tsx';
import styles from './checkout.module.css';
import { GuestFields } from './guest-fields.tsx';
import { OrderSummary } from './order-summary.tsx';
import { CheckoutProgress } from './progress.tsx';
import { useCheckoutGuard } from './use-checkout-guard.ts';
import { useDetailsForm } from './use-details-form.ts';

/** Checkout step 1 (docs/rules.md#checkout): who the order is for and the billing address. */
export default function DetailsPage() {
  useCheckoutGuard();
  const basket = useBasket();
  const navigate = useNavigate();
  const titles = useTitles();
  const countries = useCountries();
  const { form, savedBilling } = useDetailsForm(basket);
  const { errors } = form.formState;
  // Offered unless this browser signed in and the server still knows it (a session ended elsewhere clears the mark).
  const mark = useSignedInMark();
  const user = useSignedInUser();
  const signedIn = mark !== null && !user.isError;

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
      <BasketNotice />
      {!signedIn && (
        // A registered customer who is signed out is offered sign-in here too.
        <p>
          {messages.checkout.registered} <Link to="/checkout">{messages.checkout.signIn}</Link>
        </p>
      )}
      <form noValidate onSubmit={next} className={styles.layout} aria-label="Your details">
        <div>
          <GuestFields register={form.register} errors={errors.guest} titles={titles.data} />
          <BillingAddressSection
            form={form}
            savedBilling={savedBilling}
            errors={errors.billingAddress}
            countries={countries.data ?? []}
          />
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
