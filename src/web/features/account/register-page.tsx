import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { emailField, requiredText } from '../../../contract/fields.ts';
import { messages } from '../../../contract/messages.ts';
import { limitMessage } from '../../lib/api.ts';
import { useTitles } from '../../lib/catalog-api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { register } from './api/registration.ts';
import { FormField } from './form-field.tsx';

/**
 * docs/rules.md#accounts-and-sessions: all six fields required and the e-mail valid; the server
 * checks the password.
 */
const schema = z.object({
  titleId: z.number({ error: messages.registration.title }).int().min(1, messages.registration.title),
  email: emailField(messages.registration.email),
  firstname: requiredText(messages.registration.firstname, 50),
  lastname: requiredText(messages.registration.lastname, 50),
  password: requiredText(messages.registration.password, 200),
  confirm: requiredText(messages.registration.confirm, 200),
});
type Registration = z.input<typeof schema>;

function registrationMessage(code: number): string {
  const known = messages.registration as Record<number | string, string>;
  return known[code] ?? messages.registration.other;
}

/** Registration (docs/rules.md#accounts-and-sessions): the server's errorCode decides the message. */
export default function RegisterPage() {
  const titles = useTitles();
  const [error, setError] = useState<string | undefined>();
  const [complete, setComplete] = useState(false);
  const form = useForm<Registration>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { email: '', firstname: '', lastname: '', password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const { errorCode } = await register(values);
      if (errorCode === 0) setComplete(true);
      else setError(registrationMessage(errorCode));
    } catch (error) {
      setError(limitMessage(error) ?? messages.registration.other);
    }
  });

  return (
    <div className="container page" style={{ maxWidth: 640 }}>
      <PageMeta title="Register" canonicalPath="/register" />
      <h1 className="page-title">Register</h1>
      {complete ? (
        <div role="status">
          <h2>Registration complete</h2>
          <p>{messages.registration.complete}</p>
          <p>
            <Link to="/login" className="button">
              LOGIN
            </Link>{' '}
            <Link to="/home" className="button button-secondary">
              CONTINUE SHOPPING
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p>
            Already Registered? <Link to="/login">Log in</Link>
          </p>
          <form noValidate onSubmit={submit} aria-label="Register">
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
            <div className="field" style={{ marginBottom: '0.75rem' }}>
              <label htmlFor="register-title">Title</label>
              <select
                id="register-title"
                className="input"
                aria-invalid={errors.titleId ? true : undefined}
                aria-describedby={errors.titleId ? 'register-title-error' : undefined}
                {...form.register('titleId', { valueAsNumber: true })}
              >
                <option value="">Select a title</option>
                {titles.data?.map((title) => (
                  <option key={title.id} value={title.id}>
                    {title.name}
                  </option>
                ))}
              </select>
              {errors.titleId && (
                <p id="register-title-error" className="field-error">
                  {errors.titleId.message}
                </p>
              )}
            </div>
            <FormField
              id="register-email"
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...form.register('email')}
            />
            <FormField
              id="register-firstname"
              label="First Name"
              autoComplete="given-name"
              error={errors.firstname?.message}
              {...form.register('firstname')}
            />
            <FormField
              id="register-lastname"
              label="Last Name"
              autoComplete="family-name"
              error={errors.lastname?.message}
              {...form.register('lastname')}
            />
            <FormField
              id="register-password"
              label="Password (at least 10 characters)"
              type="password"
              autoComplete="new-password"
              error={errors.password?.message}
              {...form.register('password')}
            />
            <FormField
              id="register-confirm"
              label="Confirm Password"
              type="password"
              autoComplete="new-password"
              error={errors.confirm?.message}
              {...form.register('confirm')}
            />
            <button type="submit" className="button" disabled={isSubmitting}>
              REGISTER
            </button>
          </form>
        </>
      )}
    </div>
  );
}
