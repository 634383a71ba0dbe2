import { useId } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { Country } from '../../../contract/catalog.ts';
import styles from './checkout.module.css';

type Prefix = 'billingAddress' | 'deliveryAddress';
type AddressErrors = FieldErrors<{
  line1: string;
  line2: string;
  line3: string;
  postcode: string;
  townCity: string;
  countryId: number;
}>;

/** Address Line 1, 2, 3, Post Code, Town / City and Country, for the billing or delivery form. */
export function AddressFields(props: {
  prefix: Prefix;
  // The forms differ in their other fields; both hold an address under `prefix`.
  register: UseFormRegister<any>;
  errors: AddressErrors | undefined;
  countries: Country[];
  onCountryChange?: (countryId: number) => void;
}) {
  const id = useId();
  const fields = [
    { name: 'line1', label: 'Address Line 1', autoComplete: 'address-line1' },
    { name: 'line2', label: 'Address Line 2', autoComplete: 'address-line2' },
    { name: 'line3', label: 'Address Line 3', autoComplete: 'address-line3' },
    { name: 'postcode', label: 'Post Code', autoComplete: 'postal-code' },
    { name: 'townCity', label: 'Town / City', autoComplete: 'address-level2' },
  ] as const;
  const section = props.prefix === 'billingAddress' ? 'billing' : 'shipping';
  return (
    <div className={styles.fields}>
      {fields.map((field) => {
        const error = props.errors?.[field.name]?.message;
        const inputId = `${id}-${field.name}`;
        return (
          <div className="field" key={field.name}>
            <label htmlFor={inputId}>{field.label}</label>
            <input
              id={inputId}
              className="input"
              autoComplete={`${section} ${field.autoComplete}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              {...props.register(`${props.prefix}.${field.name}`)}
            />
            {error && (
              <p id={`${inputId}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <div className="field">
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          className="input"
          // Registered again once the options are there, so a saved country shows after a reload.
          key={props.countries.length > 0 ? 'options' : 'loading'}
          aria-invalid={props.errors?.countryId ? true : undefined}
          aria-describedby={props.errors?.countryId ? `${id}-country-error` : undefined}
          {...props.register(`${props.prefix}.countryId`, {
            valueAsNumber: true,
            onChange: (event: { target: { value: string } }) => props.onCountryChange?.(Number(event.target.value)),
          })}
        >
          <option value="">Select a country</option>
          {props.countries.map((country) => (
            <option key={country.id} value={country.id}>
              {country.name}
            </option>
          ))}
        </select>
        {props.errors?.countryId && (
          <p id={`${id}-country-error`} className="field-error">
            {props.errors.countryId.message}
          </p>
        )}
      </div>
    </div>
  );
}
