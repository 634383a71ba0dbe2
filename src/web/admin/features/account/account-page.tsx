import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import {
  recoveryCodesRenewSchema,
  totpCodeSchema,
  totpDisableSchema,
  type totpSetupSchema,
} from '../../../../contract/admin/staff.ts';
import { permissionDescriptions } from '../../../../contract/admin/permissions.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { staffKeys, staffMeQueryOptions } from '../../lib/staff-session.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { disableTotp, enableTotp, renewRecoveryCodes, setUpTotp, signOutEverywhere } from './api/account.ts';

/** My account: two-factor sign-in on and off, and signing out of every browser. */
export default function AccountPage() {
  const me = useQuery(staffMeQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<unknown>(null);
  // Shown once, when two-factor sign-in is turned on or the codes renewed; never fetched again.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: staffKeys.me });

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
        <dt>Your role allows</dt>
        <dd>
          {me.data.permissions.length === 0
            ? 'Nothing but your own account'
            : me.data.permissions.map((permission) => permissionDescriptions[permission].label).join(', ')}
        </dd>
      </dl>
      <h2>Two-factor sign-in</h2>
      {me.data.totpEnabled ? (
        <>
          {recoveryCodes && <RecoveryCodes codes={recoveryCodes} />}
          <TurnOff
            onDone={async () => {
              setRecoveryCodes(null);
              await refresh();
            }}
          />
          <RenewRecoveryCodes onRenewed={setRecoveryCodes} />
        </>
      ) : (
        <TurnOn
          onDone={async (codes) => {
            setRecoveryCodes(codes);
            await refresh();
          }}
        />
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

function TurnOn({ onDone }: { onDone: (recoveryCodes: string[]) => Promise<void> }) {
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
      const { recoveryCodes } = await enableTotp(code);
      await onDone(recoveryCodes);
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
          <p>Scan this QR code with your authenticator app:</p>
          <img
            className="adm-qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code holding the secret key below, for your authenticator app"
            width={200}
            height={200}
          />
          <p>Or add an account with this secret key, or paste the otpauth link into an app that takes one:</p>
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

/** The ten recovery codes, shown this once: each signs in once in place of the app's code. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="adm-done" aria-labelledby="recovery-codes-heading" role="status">
      <h3 id="recovery-codes-heading">Your recovery codes</h3>
      <p>
        Keep these somewhere safe, away from your phone (printed, or in a password manager). If you lose your phone,
        each code signs you in once in place of the app’s code. They are not shown again.
      </p>
      <ul className="adm-code" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <button
        type="button"
        className="button adm-small"
        onClick={() => void navigator.clipboard.writeText(codes.join('\n')).then(() => setCopied(true))}
      >
        {copied ? 'Copied' : 'Copy the codes'}
      </button>
    </section>
  );
}

/** New recovery codes (the old ones stop working), after the password again. */
function RenewRecoveryCodes({ onRenewed }: { onRenewed: (codes: string[]) => void }) {
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<z.input<typeof recoveryCodesRenewSchema>>({
    resolver: zodResolver(recoveryCodesRenewSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ password }) => {
    setProblem(null);
    try {
      onRenewed((await renewRecoveryCodes(password)).recoveryCodes);
      form.reset();
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <>
      <h3>Recovery codes</h3>
      <p>Used some, or lost them? New codes replace every old one.</p>
      <form noValidate aria-label="New recovery codes" className="adm-form" onSubmit={submit}>
        <ErrorAlert error={problem} />
        <Field
          id="recovery-codes-password"
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <button type="submit" className="button button-secondary adm-small" disabled={isSubmitting}>
          Make new recovery codes
        </button>
      </form>
    </>
  );
}
