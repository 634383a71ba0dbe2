import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { signInFormSchema, type SignInForm } from '../../../contract/accounts.ts';
import type { SignInRefusal } from '../../lib/account.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { SignInRefusalMessage } from '../../lib/sign-in-refusal.tsx';
import { signIn } from './api/auth.ts';
import { FormField } from './form-field.tsx';

/** Customer login (docs/rules.md#pages-and-routes). */
export default function LoginPage() {
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<SignInRefusal>();
  const [complete, setComplete] = useState(false);
  const form = useForm<SignInForm>({
    resolver: zodResolver(signInFormSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const refused = await signIn(values.email, values.password, queryClient);
    setRefusal(refused);
    setComplete(!refused);
  });

  return (
    <div className="container page" style={{ maxWidth: 560 }}>
      <PageMeta title="Login" canonicalPath="/login" />
      <h1 className="page-title">Login</h1>
      {complete ? (
        <div role="status">
          <p>You are signed in.</p>
          <p>
            <Link to="/account-home" className="button">
              MY ACCOUNT
            </Link>{' '}
            <Link to="/home" className="button button-secondary">
              CONTINUE SHOPPING
            </Link>
          </p>
        </div>
      ) : (
        <form noValidate onSubmit={submit} aria-label="Login">
          {refusal && <SignInRefusalMessage key={JSON.stringify(refusal)} refusal={refusal} />}
          <FormField
            id="login-email"
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <FormField
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <button type="submit" className="button" disabled={isSubmitting}>
            LOG IN
          </button>
          <p>
            <Link to="/forgotpassword">Forgotten your password?</Link> · <Link to="/register">Register</Link>
          </p>
        </form>
      )}
    </div>
  );
}
