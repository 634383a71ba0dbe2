import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { signInFormSchema, type SignInForm } from '../../../contract/accounts.ts';
import { confirmSignedIn, signInRefusalOf, signInWithPassword, type SignInRefusal } from '../../lib/account.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { SignInRefusalMessage } from '../../lib/sign-in-refusal.tsx';
import styles from './checkout.module.css';
import { CheckoutProgress } from './progress.tsx';
import { useCheckoutGuard } from './use-checkout-guard.ts';

/**
 * Checkout sign-in (docs/rules.md#checkout): returning customers sign in, others check out as
 * guests. On arrival an empty basket goes to /, a basket with errors to the cart, and a shopper
 * already signed in straight on to their details.
 */
export default function CheckoutSignInPage() {
  const queryClient = useQueryClient();
  // Signed in means the server still knows the session, not merely that this browser once signed in.
  useCheckoutGuard(async (hasErrors) =>
    hasErrors ? '/shopping-cart' : (await confirmSignedIn(queryClient)) ? '/checkout-details' : undefined,
  );
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<SignInRefusal>();
  const form = useForm<SignInForm>({
    resolver: zodResolver(signInFormSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const signIn = form.handleSubmit(async (values) => {
    setRefusal(undefined);
    try {
      await signInWithPassword(values.email, values.password);
      void navigate('/checkout-details');
    } catch (error) {
      setRefusal(signInRefusalOf(error, values.email, values.password));
    }
  });

  return (
    <div className="container page">
      <PageMeta title="Checkout" canonicalPath="/checkout" />
      <CheckoutProgress current={0} />
      <h1 className="page-title">Checkout</h1>
      <div className={styles.blocks}>
        <section className={styles.panel} aria-labelledby="returning-customer">
          <h2 id="returning-customer">Returning Customer</h2>
          <form noValidate onSubmit={signIn} aria-label="Sign in">
            {(['email', 'password'] as const).map((name) => (
              <div className="field" key={name} style={{ marginBottom: '0.75rem' }}>
                <label htmlFor={`signin-${name}`}>{name === 'email' ? 'Email' : 'Password'}</label>
                <input
                  id={`signin-${name}`}
                  className="input"
                  type={name}
                  autoComplete={name === 'email' ? 'email' : 'current-password'}
                  aria-invalid={errors[name] ? true : undefined}
                  aria-describedby={errors[name] ? `signin-${name}-error` : undefined}
                  {...form.register(name)}
                />
                {errors[name] && (
                  <p id={`signin-${name}-error`} className="field-error">
                    {errors[name]?.message}
                  </p>
                )}
              </div>
            ))}
            {refusal && <SignInRefusalMessage key={JSON.stringify(refusal)} refusal={refusal} />}
            <div className={styles.actions}>
              <button type="submit" className="button">
                LOG IN
              </button>
              <Link to="/forgotpassword">Forgotten your password?</Link>
            </div>
          </form>
        </section>
        <section className={styles.panel} aria-labelledby="new-customer">
          <h2 id="new-customer">New Customer</h2>
          <p>Register for faster checkout next time, or check out as a guest now.</p>
          <div className={styles.actions}>
            <Link to="/register" className="button button-secondary">
              REGISTER
            </Link>
            <Link to="/checkout-details" className="button">
              GUEST CHECKOUT
            </Link>
          </div>
        </section>
      </div>
    </div>
  );
}
