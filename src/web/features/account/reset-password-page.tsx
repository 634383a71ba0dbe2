import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { requiredText } from '../../../contract/fields.ts';
import { messages } from '../../../contract/messages.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { resetPassword } from './api/passwords.ts';
import { FormField } from './form-field.tsx';

const schema = z.object({
  password: requiredText(messages.registration.password, 200),
  confirm: requiredText(messages.registration.confirm, 200),
});
type Reset = z.infer<typeof schema>;

/** Choosing a new password from the e-mailed link; every session ends when it changes. */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const form = useForm<Reset>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { password: '', confirm: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const result = await resetPassword({ token, ...values });
      if (result.ok) setDone(true);
      else if (result.errorCode === 2 || result.errorCode === 3) setError(messages.registration[result.errorCode]);
      else setError('This link has expired or has been used. Please ask for a new one.');
    } catch {
      setError('This link has expired or has been used. Please ask for a new one.');
    }
  });
  return (
    <div className="container page" style={{ maxWidth: 560 }}>
      <PageMeta title="Reset Password" />
      <h1 className="page-title">Choose a new password</h1>
      {done ? (
        <div role="status">
          <p>Your password has been changed. Please log in with your new password.</p>
          <Link to="/login" className="button">
            LOGIN
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={submit} aria-label="New password">
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <FormField
            id="reset-password"
            label="New Password (at least 10 characters)"
            type="password"
            autoComplete="new-password"
            error={form.formState.errors.password?.message}
            {...form.register('password')}
          />
          <FormField
            id="reset-confirm"
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            error={form.formState.errors.confirm?.message}
            {...form.register('confirm')}
          />
          <button type="submit" className="button">
            SAVE PASSWORD
          </button>
        </form>
      )}
    </div>
  );
}
