import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { staffSignInSchema, type StaffSignIn } from '../../../../contract/admin/staff.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { staffKeys } from '../../lib/staff-session.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { staffSignIn } from './api/auth.ts';

/** Only a path inside the back office is followed after signing in. */
function nextPath(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * Staff sign-in: e-mail, password and, for an account with two-factor sign-in on, the code, all in
 * one form (the server answers every failure alike, so it never says "now the code").
 */
export default function SignInPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<StaffSignIn>({
    resolver: zodResolver(staffSignInSchema),
    defaultValues: { email: '', password: '', code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await staffSignIn(values);
      await queryClient.resetQueries({ queryKey: staffKeys.me });
      await navigate(nextPath(searchParams.get('next')), { replace: true });
    } catch (error) {
      setProblem(error);
    }
  });

  return (
    <AdminPage title="Sign in to the back office">
      <form className="adm-form" noValidate onSubmit={submit} aria-label="Sign in">
        <ErrorAlert error={problem} />
        <Field
          id="sign-in-email"
          label="E-mail address"
          type="email"
          autoComplete="username"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <Field
          id="sign-in-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Field
          id="sign-in-code"
          label="Six-digit code or recovery code"
          hint="Only if you have turned on two-factor sign-in: the code your authenticator app shows, or one of your recovery codes."
          autoComplete="one-time-code"
          maxLength={16}
          error={errors.code?.message}
          {...form.register('code')}
        />
        <button type="submit" className="button" disabled={isSubmitting}>
          Sign in
        </button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </AdminPage>
  );
}
