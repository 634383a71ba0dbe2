import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { AccountDetails } from '../../../contract/accounts.ts';
import { useCountries } from '../../lib/catalog-api.ts';
import { FormField } from './form-field.tsx';

/** My Account's billing or delivery address: the five lines and the country. */
export function AddressSet(props: {
  prefix: 'billingAddress' | 'deliveryAddress';
  register: UseFormRegister<AccountDetails>;
  errors: FieldErrors<AccountDetails>['billingAddress'];
}) {
  const countries = useCountries();
  const id = props.prefix === 'billingAddress' ? 'billing' : 'delivery';
  const fields = [
    ['line1', 'Address Line 1'],
    ['line2', 'Address Line 2'],
    ['line3', 'Address Line 3 (optional)'],
    ['postcode', 'Post Code'],
    ['townCity', 'Town / City'],
  ] as const;
  return (
    <>
      {fields.map(([name, label]) => (
        <FormField
          key={name}
          id={`${id}-${name}`}
          label={label}
          error={props.errors?.[name]?.message}
          {...props.register(`${props.prefix}.${name}`)}
        />
      ))}
      <div className="field" style={{ marginBottom: '0.75rem' }}>
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          className="input"
          // The form sets a select's value when it is registered; without its option yet (the countries
          // still loading after a reload) it would show the first one. Mounted again when they arrive.
          key={countries.data ? 'options' : 'loading'}
          {...props.register(`${props.prefix}.countryId`, { valueAsNumber: true })}
        >
          <option value="">Select a country</option>
          {countries.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        {props.errors?.countryId && <p className="field-error">{props.errors.countryId.message}</p>}
      </div>
    </>
  );
}
