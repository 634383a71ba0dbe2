import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/accounts.ts';
import { staffSetPasswordSchema, type StaffSetPassword } from '../../../../contract/admin/staff.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { setStaffPassword } from './api/auth.ts';

/** The single-use link an owner (or `npm run staff:create`) hands out: the person chooses a password. */
export default function SetPasswordPage() {
  const { token = '' } = useParams();
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<StaffSetPassword>({
    resolver: zodResolver(staffSetPasswordSchema),
    defaultValues: { token, password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await setStaffPassword({ ...values, token });
      setDone(true);
    } catch (error) {
      setProblem(error);
    }
  });

  return (
    <AdminPage title="Choose your password">
      {done ? (
        <div role="status">
          <p className="adm-done">Your password is set.</p>
          <p>
            <Link to="/sign-in" className="button">
              Sign in
            </Link>
          </p>
        </div>
      ) : (
        <form className="adm-form" noValidate onSubmit={submit} aria-label="Choose your password">
          <ErrorAlert error={problem} />
          <Field
            id="set-password"
            label="New password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters; a phrase of several words is easy to remember and hard to guess.`}
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Field
            id="set-password-confirm"
            label="Confirm the password"
            type="password"
            autoComplete="new-password"
            error={errors.confirm?.message}
            {...form.register('confirm')}
          />
          <button type="submit" className="button" disabled={isSubmitting}>
            Set password
          </button>
        </form>
      )}
    </AdminPage>
  );
}
