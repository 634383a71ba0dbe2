import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { staffForgotPasswordSchema, type StaffForgotPassword } from '../../../../contract/admin/staff.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { staffForgotPassword } from './api/auth.ts';

/**
 * "Forgot your password?": a single-use link by e-mail to the set-password page. The answer is the
 * same whether or not the address has an account (docs/back-office.md#staff-accounts).
 */
export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<StaffForgotPassword>({
    resolver: zodResolver(staffForgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await staffForgotPassword(values);
      setSentTo(values.email);
    } catch (error) {
      setProblem(error);
    }
  });

  return (
    <AdminPage title="Forgot your password?">
      {sentTo ? (
        <div role="status">
          <p className="adm-done">
            If {sentTo} has a back-office account, we have e-mailed it a link to choose a new password. The link works
            once, for an hour.
          </p>
          <p>
            <Link to="/sign-in">Back to sign-in</Link>
          </p>
        </div>
      ) : (
        <>
          <p>
            Give the e-mail address you sign in with, and we will e-mail it a link to choose a new password. If you have
            also lost your authenticator app and your recovery codes, ask an owner to reset your two-factor sign-in.
          </p>
          <form className="adm-form" noValidate onSubmit={submit} aria-label="Forgot your password?">
            <ErrorAlert error={problem} />
            <Field
              id="forgot-email"
              label="E-mail address"
              type="email"
              autoComplete="username"
              error={errors.email?.message}
              {...form.register('email')}
            />
            <button type="submit" className="button" disabled={isSubmitting}>
              E-mail me a link
            </button>
          </form>
          <p>
            <Link to="/sign-in">Back to sign-in</Link>
          </p>
        </>
      )}
    </AdminPage>
  );
}
