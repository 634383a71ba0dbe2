import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { staffSignInSchema, type StaffSignIn } from '../../../../contract/admin/staff.ts';
import { errorCodes } from '../../../../contract/error-codes.ts';
import { ApiRequestError } from '../../../lib/api.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { staffKeys } from '../../lib/staff-session.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { staffSignIn } from './api/auth.ts';

/** Only a path inside the back office is followed after signing in. */
function nextPath(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** Staff sign-in: e-mail and password, then the authenticator code when the account has two-factor on. */
export default function SignInPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [needsCode, setNeedsCode] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<StaffSignIn>({
    resolver: zodResolver(staffSignInSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await staffSignIn(needsCode ? values : { email: values.email, password: values.password });
      await queryClient.resetQueries({ queryKey: staffKeys.me });
      await navigate(nextPath(searchParams.get('next')), { replace: true });
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === errorCodes.totpRequired && !needsCode) {
        setNeedsCode(true);
        return;
      }
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
        {needsCode && (
          <Field
            id="sign-in-code"
            label="Six-digit code"
            hint="Two-factor sign-in is on for this account: enter the code your authenticator app shows."
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            error={errors.code?.message}
            // It appears once the password was right: the cursor goes straight to it.
            autoFocus
            {...form.register('code')}
          />
        )}
        <button type="submit" className="button" disabled={isSubmitting}>
          Sign in
        </button>
      </form>
    </AdminPage>
  );
}
