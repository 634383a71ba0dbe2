import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { accountSchema, type AccountAnswer, type AccountDetails } from '../../../contract/accounts.ts';
import { useTitles } from '../../lib/catalog-api.ts';
import { useShowMessage } from '../../ui/message-modal/message-modal.tsx';
import { AddressSet } from './address-set.tsx';
import { saveAccount } from './api/account.ts';
import { FormField } from './form-field.tsx';

function defaults(account: AccountAnswer): AccountDetails {
  const address = (a: AccountAnswer['billingAddress']) => ({
    line1: a.line1 ?? '',
    line2: a.line2 ?? '',
    line3: a.line3 ?? '',
    postcode: a.postcode ?? '',
    townCity: a.townCity ?? '',
    countryId: a.countryId ?? (undefined as unknown as number),
  });
  return {
    titleId: account.titleId,
    firstname: account.firstname,
    lastname: account.lastname,
    contactNumber: account.contactNumber,
    billingAddress: address(account.billingAddress),
    deliveryAddress: address(account.deliveryAddress),
  };
}

const addressParts = ['line1', 'line2', 'line3', 'postcode', 'townCity', 'countryId'] as const;

/** A delivery address saved as the billing address: the page opens with "Use Billing Address" ticked. */
function deliversToBilling(account: AccountAnswer): boolean {
  const { billingAddress: billing, deliveryAddress: delivery } = account;
  return Boolean(billing.line1) && addressParts.every((part) => billing[part] === delivery[part]);
}

const validate = zodResolver(accountSchema);

/** Personal and contact details and both addresses, saved together with Save Changes. */
export function AccountDetailsForm({ account }: { account: AccountAnswer }) {
  const queryClient = useQueryClient();
  const showMessage = useShowMessage();
  const titles = useTitles();
  // "Use Billing Address" leaves the delivery fields as they are, out of sight, and saves the
  // billing address as the delivery address: unticked again, the fields still hold the saved
  // delivery address, which the shopper has not chosen to lose.
  const [useBilling, setUseBilling] = useState(() => deliversToBilling(account));
  const usingBilling = useRef(useBilling);
  const resolver: Resolver<AccountDetails> = async (values, context, options) => {
    if (!usingBilling.current) return validate(values, context, options);
    const result = await validate({ ...values, deliveryAddress: values.billingAddress }, context, options);
    if (!result.errors.deliveryAddress) return result;
    // The billing fields show their own messages; the hidden delivery fields have none to show.
    const { deliveryAddress: _hidden, ...errors } = result.errors;
    return { values: {}, errors };
  };
  const form = useForm<AccountDetails>({ resolver, mode: 'onTouched', defaultValues: defaults(account) });
  const { errors, isSubmitting } = form.formState;

  function chooseBilling(checked: boolean) {
    usingBilling.current = checked;
    setUseBilling(checked);
    form.clearErrors('deliveryAddress');
  }

  const save = form.handleSubmit(async (values) => {
    try {
      await saveAccount(values, queryClient);
      // What is saved is what the form now holds: the delivery address too, when it was the billing one.
      form.reset(values);
      showMessage({ type: 'success', title: 'Saved', text: 'Your details have been saved.' });
    } catch {
      showMessage({ type: 'error', title: 'Not saved', text: 'Your details could not be saved. Please try again.' });
    }
  });

  return (
    <form noValidate onSubmit={save} aria-label="Account details" style={{ maxWidth: 640 }}>
      <section id="personal" aria-labelledby="personal-heading">
        <h2 id="personal-heading">Personal Details</h2>
        <div className="field" style={{ marginBottom: '0.75rem' }}>
          <label htmlFor="account-title">Title</label>
          <select
            id="account-title"
            className="input"
            // A select shows its value only once it has the option: mounted again when they arrive (see AddressSet).
            key={titles.data ? 'options' : 'loading'}
            {...form.register('titleId', { valueAsNumber: true })}
          >
            {titles.data?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <FormField
          id="account-firstname"
          label="First Name"
          autoComplete="given-name"
          error={errors.firstname?.message}
          {...form.register('firstname')}
        />
        <FormField
          id="account-lastname"
          label="Last Name"
          autoComplete="family-name"
          error={errors.lastname?.message}
          {...form.register('lastname')}
        />
        <FormField id="account-email" label="Email Address" value={account.email} readOnly />
      </section>
      <section id="contact" aria-labelledby="contact-heading">
        <h2 id="contact-heading">Contact Details</h2>
        <FormField
          id="account-phone"
          label="Contact Number"
          type="tel"
          autoComplete="tel"
          error={errors.contactNumber?.message}
          {...form.register('contactNumber')}
        />
      </section>
      <section id="billing" aria-labelledby="billing-heading">
        <h2 id="billing-heading">Billing Address</h2>
        <AddressSet prefix="billingAddress" register={form.register} errors={errors.billingAddress} />
      </section>
      <section id="delivery" aria-labelledby="delivery-heading">
        <h2 id="delivery-heading">Delivery Address</h2>
        <label style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', marginBottom: '0.75rem' }}>
          <input type="checkbox" checked={useBilling} onChange={(event) => chooseBilling(event.target.checked)} />
          Use Billing Address
        </label>
        {useBilling && <p>Your orders are delivered to your billing address.</p>}
        <div hidden={useBilling}>
          <AddressSet prefix="deliveryAddress" register={form.register} errors={errors.deliveryAddress} />
        </div>
      </section>
      <button type="submit" className="button" disabled={isSubmitting}>
        Save Changes
      </button>
    </form>
  );
}
