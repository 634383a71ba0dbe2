import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { Title } from '../../../contract/catalog.ts';
import styles from './checkout.module.css';
import type { Details } from './use-details-form.ts';

const guestFields = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'firstname', label: 'First Name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastname', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
  { name: 'contactNumber', label: 'Contact Number', type: 'tel', autoComplete: 'tel' },
] as const;

/** Personal Details: title, e-mail, names and contact number of whom the order is for. */
export function GuestFields(props: {
  register: UseFormRegister<Details>;
  errors: FieldErrors<Details>['guest'];
  titles: Title[] | undefined;
}) {
  const { errors } = props;
  return (
    <section className={styles.panel} aria-labelledby="personal-details">
      <h2 id="personal-details">Personal Details</h2>
      <p>Please provide your name and the delivery address for this order.</p>
      <div className={styles.fields}>
        <div className="field">
          <label htmlFor="guest-title">Title</label>
          <select
            id="guest-title"
            className="input"
            // Registered again once the options are there, so a saved title shows after a reload.
            key={props.titles ? 'options' : 'loading'}
            autoComplete="honorific-prefix"
            aria-invalid={errors?.titleId ? true : undefined}
            aria-describedby={errors?.titleId ? 'guest-title-error' : undefined}
            {...props.register('guest.titleId', { valueAsNumber: true })}
          >
            <option value="">Select a title</option>
            {props.titles?.map((title) => (
              <option key={title.id} value={title.id}>
                {title.name}
              </option>
            ))}
          </select>
          {errors?.titleId && (
            <p id="guest-title-error" className="field-error">
              {errors.titleId.message}
            </p>
          )}
        </div>
        {guestFields.map((field) => {
          const error = errors?.[field.name]?.message;
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
                {...props.register(`guest.${field.name}`)}
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
  );
}
