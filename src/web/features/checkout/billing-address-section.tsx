import { useState } from 'react';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import type { AccountAnswer } from '../../../contract/accounts.ts';
import type { Country } from '../../../contract/catalog.ts';
import { AddressFields } from './address-fields.tsx';
import styles from './checkout.module.css';
import type { Details } from './use-details-form.ts';

/** Billing Address: a customer's saved one, unless they choose another, or the fields to fill in. */
export function BillingAddressSection(props: {
  form: UseFormReturn<Details>;
  savedBilling: AccountAnswer['billingAddress'] | undefined;
  errors: FieldErrors<Details>['billingAddress'];
  countries: Country[];
}) {
  const { form, savedBilling } = props;
  const [otherBilling, setOtherBilling] = useState(false);
  return (
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
          errors={props.errors}
          countries={props.countries}
        />
      </div>
    </section>
  );
}
