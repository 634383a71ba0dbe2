import { useState } from 'react';
import { changePassword } from './api/passwords.ts';
import { FormField } from './form-field.tsx';

/** Security: the current password and a new one twice; other sessions end when it changes. */
export function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  async function change(event: React.FormEvent) {
    event.preventDefault();
    try {
      const answer = await changePassword({ currentPassword: current, password, confirm });
      const texts: Record<number, string> = {
        0: 'Your password has been changed. Other sessions have been signed out.',
        1: 'Your current password is not right.',
        2: 'Invalid password, please provide a stronger password.',
        3: 'Password confirmation failed, please re-enter and confirm your password.',
      };
      setResult({ ok: answer.ok, text: texts[answer.errorCode] ?? 'Please try again.' });
      if (answer.ok) {
        setCurrent('');
        setPassword('');
        setConfirm('');
      }
    } catch {
      setResult({ ok: false, text: 'Your password could not be changed. Please try again.' });
    }
  }
  return (
    <form noValidate onSubmit={change} aria-label="Change password">
      <FormField
        id="current-password"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <FormField
        id="new-password"
        label="New Password (at least 10 characters)"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormField
        id="confirm-password"
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <p role="status" className={result?.ok ? undefined : 'field-error'}>
        {result?.text ?? ''}
      </p>
      <button type="submit" className="button button-secondary">
        Change Password
      </button>
    </form>
  );
}
