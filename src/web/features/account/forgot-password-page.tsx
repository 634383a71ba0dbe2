import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { emailField } from '../../../contract/fields.ts';
import { messages } from '../../../contract/messages.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { requestPasswordReset } from './api/passwords.ts';
import { FormField } from './form-field.tsx';

const schema = z.object({ email: emailField(messages.login.email) });

/**
 * Forgotten password (docs/rules.md#accounts-and-sessions): the same answer whether or not the
 * address is registered.
 */
export default function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const form = useForm<{ email: string }>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    await requestPasswordReset(values).catch(() => undefined);
    setSent(true);
  });
  return (
    <div className="container page" style={{ maxWidth: 560 }}>
      <PageMeta title="Forgotten Password" canonicalPath="/forgotpassword" />
      <h1 className="page-title">Forgotten Password</h1>
      {sent ? (
        <p role="status">
          If an account uses that address, we have sent it a link to choose a new password. The link works for one hour.
        </p>
      ) : (
        <form noValidate onSubmit={submit} aria-label="Forgotten password">
          <p>Enter your e-mail address and we will send you a link to choose a new password.</p>
          <FormField
            id="forgot-email"
            label="Email"
            type="email"
            autoComplete="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <button type="submit" className="button">
            SEND LINK
          </button>
        </form>
      )}
    </div>
  );
}
