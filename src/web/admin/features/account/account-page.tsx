import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { totpCodeSchema, totpDisableSchema, type totpSetupSchema } from '../../../../contract/admin/staff.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { staffKeys, staffMeQueryOptions } from '../../lib/staff-session.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { disableTotp, enableTotp, setUpTotp, signOutEverywhere } from './api/account.ts';

/** My account: two-factor sign-in on and off, and signing out of every browser. */
export default function AccountPage() {
  const me = useQuery(staffMeQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<unknown>(null);

  async function everywhere() {
    setProblem(null);
    try {
      await signOutEverywhere();
      await navigate('/sign-in');
      queryClient.removeQueries();
    } catch (error) {
      setProblem(error);
    }
  }

  if (!me.data) return null;
  return (
    <AdminPage title="My account">
      <dl className="adm-facts">
        <dt>Name</dt>
        <dd>{me.data.name}</dd>
        <dt>E-mail</dt>
        <dd>{me.data.email}</dd>
        <dt>Role</dt>
        <dd>{me.data.role}</dd>
      </dl>
      <h2>Two-factor sign-in</h2>
      {me.data.totpEnabled ? (
        <TurnOff onDone={() => queryClient.invalidateQueries({ queryKey: staffKeys.me })} />
      ) : (
        <TurnOn onDone={() => queryClient.invalidateQueries({ queryKey: staffKeys.me })} />
      )}
      <h2>Sessions</h2>
      <ErrorAlert error={problem} />
      <p>Signs you out here and in every other browser where you are signed in.</p>
      <button type="button" className="button button-secondary adm-small" onClick={() => void everywhere()}>
        Sign out everywhere
      </button>
    </AdminPage>
  );
}

function TurnOn({ onDone }: { onDone: () => Promise<void> }) {
  const [setup, setSetup] = useState<z.infer<typeof totpSetupSchema> | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<z.input<typeof totpCodeSchema>>({
    resolver: zodResolver(totpCodeSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function start() {
    setProblem(null);
    try {
      setSetup(await setUpTotp());
    } catch (error) {
      setProblem(error);
    }
  }
  const confirm = form.handleSubmit(async ({ code }) => {
    setProblem(null);
    try {
      await enableTotp(code);
      await onDone();
    } catch (error) {
      setProblem(error);
    }
  });

  return (
    <>
      <p>Off. With it on, signing in also asks for a six-digit code from an authenticator app on your phone.</p>
      <ErrorAlert error={problem} />
      {!setup ? (
        <button type="button" className="button adm-small" onClick={() => void start()}>
          Turn on two-factor sign-in
        </button>
      ) : (
        <form noValidate aria-label="Confirm two-factor sign-in" className="adm-form" onSubmit={confirm}>
          <p>
            In your authenticator app, add an account with this secret key, or paste the otpauth link into an app that
            takes one:
          </p>
          <p>
            Secret key:{' '}
            <code className="adm-code" data-testid="totp-secret">
              {setup.secret}
            </code>
          </p>
          <p>
            Link: <code className="adm-code">{setup.otpauthUrl}</code>
          </p>
          <Field
            id="totp-confirm-code"
            label="Six-digit code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            error={errors.code?.message}
            {...form.register('code')}
          />
          <button type="submit" className="button adm-small" disabled={isSubmitting}>
            Confirm and turn on
          </button>
        </form>
      )}
    </>
  );
}

function TurnOff({ onDone }: { onDone: () => Promise<void> }) {
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<z.input<typeof totpDisableSchema>>({
    resolver: zodResolver(totpDisableSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ password }) => {
    setProblem(null);
    try {
      await disableTotp(password);
      await onDone();
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <>
      <p>On: signing in asks for a code from your authenticator app.</p>
      <form noValidate aria-label="Turn off two-factor sign-in" className="adm-form" onSubmit={submit}>
        <ErrorAlert error={problem} />
        <Field
          id="totp-off-password"
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <button type="submit" className="button button-secondary adm-small" disabled={isSubmitting}>
          Turn off two-factor sign-in
        </button>
      </form>
    </>
  );
}
