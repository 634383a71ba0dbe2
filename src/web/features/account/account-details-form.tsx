import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
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

/** Personal and contact details and both addresses, saved together with Save Changes. */
export function AccountDetailsForm({ account }: { account: AccountAnswer }) {
  const queryClient = useQueryClient();
  const showMessage = useShowMessage();
  const titles = useTitles();
  const form = useForm<AccountDetails>({
    resolver: zodResolver(accountSchema),
    mode: 'onTouched',
    defaultValues: defaults(account),
  });
  const { errors, isSubmitting } = form.formState;

  const save = form.handleSubmit(async (values) => {
    try {
      await saveAccount(values, queryClient);
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
          <input
            type="checkbox"
            onChange={(event) => {
              if (event.target.checked)
                form.setValue('deliveryAddress', form.getValues('billingAddress'), { shouldValidate: true });
            }}
          />
          Use Billing Address
        </label>
        <AddressSet prefix="deliveryAddress" register={form.register} errors={errors.deliveryAddress} />
      </section>
      <button type="submit" className="button" disabled={isSubmitting}>
        Save Changes
      </button>
    </form>
  );
}
