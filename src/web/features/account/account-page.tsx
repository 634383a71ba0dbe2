import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { accountSchema, type AccountAnswer, type AccountDetails } from '../../../contract/accounts.ts';
import { authToken, useAccount } from '../../lib/account.ts';
import { useCountries, useTitles } from '../../lib/catalog-api.ts';
import { formatPence } from '../../lib/format.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { useShowMessage } from '../../ui/message-modal/message-modal.tsx';
import { accountOrdersQueryOptions, saveAccount } from './api/account.ts';
import { signOut } from './api/auth.ts';
import { changePassword } from './api/passwords.ts';
import { FormField } from './form-field.tsx';
import type { OrderStatus } from '../../../contract/order-status.ts';

const sections = [
  ['personal', 'Personal Details'],
  ['contact', 'Contact Details'],
  ['billing', 'Billing Address'],
  ['delivery', 'Delivery Address'],
  ['security', 'Security'],
  ['orders', 'Your Orders'],
] as const;

const statusNames: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid',
  payment_failed: 'Payment failed',
  expired: 'Expired (not paid)',
  cancelled: 'Cancelled',
};

function defaults(account: AccountAnswer): AccountDetails {
  const address = (a: AccountAnswer['billingAddress']) => ({
    line1: a.line1 ?? '',
    line2: a.line2 ?? '',
    line3: a.line3 ?? '',
    postcode: a.postcode ?? '',
    townCity: a.townCity ?? '',
    countryId: a.countryId ?? (undefined as unknown as number),
  });
  return {
    titleId: account.titleId,
    firstname: account.firstname,
    lastname: account.lastname,
    contactNumber: account.contactNumber,
    billingAddress: address(account.billingAddress),
    deliveryAddress: address(account.deliveryAddress),
  };
}

/** My Account (docs/rules.md#accounts-and-sessions): saved for real, with the order history. */
export default function AccountPage() {
  const account = useAccount();
  const signedIn = Boolean(authToken.get());
  if (!signedIn || account.isError) {
    return (
      <div className="container page">
        <PageMeta title="My Account" />
        <h1 className="page-title">My Account</h1>
        <p>Please log in to see your account.</p>
        <Link to="/login" className="button">
          LOG IN
        </Link>
      </div>
    );
  }
  if (!account.data) {
    return (
      <div className="container page" role="status">
        <span className="visually-hidden">Loading…</span>
      </div>
    );
  }
  return <AccountForms account={account.data} />;
}

function AddressSet(props: {
  prefix: 'billingAddress' | 'deliveryAddress';
  register: UseFormRegister<AccountDetails>;
  errors: FieldErrors<AccountDetails>['billingAddress'];
}) {
  const countries = useCountries();
  const id = props.prefix === 'billingAddress' ? 'billing' : 'delivery';
  const fields = [
    ['line1', 'Address Line 1'],
    ['line2', 'Address Line 2'],
    ['line3', 'Address Line 3 (optional)'],
    ['postcode', 'Post Code'],
    ['townCity', 'Town / City'],
  ] as const;
  return (
    <>
      {fields.map(([name, label]) => (
        <FormField
          key={name}
          id={`${id}-${name}`}
          label={label}
          error={props.errors?.[name]?.message}
          {...props.register(`${props.prefix}.${name}`)}
        />
      ))}
      <div className="field" style={{ marginBottom: '0.75rem' }}>
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          className="input"
          {...props.register(`${props.prefix}.countryId`, { valueAsNumber: true })}
        >
          <option value="">Select a country</option>
          {countries.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        {props.errors?.countryId && <p className="field-error">{props.errors.countryId.message}</p>}
      </div>
    </>
  );
}

function AccountForms({ account }: { account: AccountAnswer }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const showMessage = useShowMessage();
  const titles = useTitles();
  const form = useForm<AccountDetails>({
    resolver: zodResolver(accountSchema),
    mode: 'onTouched',
    defaultValues: defaults(account),
  });
  const { errors, isSubmitting } = form.formState;
  const orders = useQuery(accountOrdersQueryOptions());

  const save = form.handleSubmit(async (values) => {
    try {
      await saveAccount(values, queryClient);
      showMessage({ type: 'success', title: 'Saved', text: 'Your details have been saved.' });
    } catch {
      showMessage({ type: 'error', title: 'Not saved', text: 'Your details could not be saved. Please try again.' });
    }
  });

  return (
    <div className="container page">
      <PageMeta title="My Account" />
      <h1 className="page-title">My Account</h1>
      <p>
        Hello {account.firstname}, welcome back.{' '}
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void signOut(queryClient).then(() => navigate('/home'))}
        >
          Sign out
        </button>
      </p>
      <nav aria-label="Account sections">
        <ul style={{ display: 'flex', flexWrap: 'wrap', gap: '1rem', listStyle: 'none', padding: 0 }}>
          {sections.map(([anchor, name]) => (
            <li key={anchor}>
              <a href={`#${anchor}`}>{name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <form noValidate onSubmit={save} aria-label="Account details" style={{ maxWidth: 640 }}>
        <section id="personal" aria-labelledby="personal-heading">
          <h2 id="personal-heading">Personal Details</h2>
          <div className="field" style={{ marginBottom: '0.75rem' }}>
            <label htmlFor="account-title">Title</label>
            <select id="account-title" className="input" {...form.register('titleId', { valueAsNumber: true })}>
              {titles.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <FormField
            id="account-firstname"
            label="First Name"
            autoComplete="given-name"
            error={errors.firstname?.message}
            {...form.register('firstname')}
          />
          <FormField
            id="account-lastname"
            label="Last Name"
            autoComplete="family-name"
            error={errors.lastname?.message}
            {...form.register('lastname')}
          />
          <FormField id="account-email" label="Email Address" value={account.email} readOnly />
        </section>
        <section id="contact" aria-labelledby="contact-heading">
          <h2 id="contact-heading">Contact Details</h2>
          <FormField
            id="account-phone"
            label="Contact Number"
            type="tel"
            autoComplete="tel"
            error={errors.contactNumber?.message}
            {...form.register('contactNumber')}
          />
        </section>
        <section id="billing" aria-labelledby="billing-heading">
          <h2 id="billing-heading">Billing Address</h2>
          <AddressSet prefix="billingAddress" register={form.register} errors={errors.billingAddress} />
        </section>
        <section id="delivery" aria-labelledby="delivery-heading">
          <h2 id="delivery-heading">Delivery Address</h2>
          <label style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', marginBottom: '0.75rem' }}>
            <input
              type="checkbox"
              onChange={(event) => {
                if (event.target.checked)
                  form.setValue('deliveryAddress', form.getValues('billingAddress'), { shouldValidate: true });
              }}
            />
            Use Billing Address
          </label>
          <AddressSet prefix="deliveryAddress" register={form.register} errors={errors.deliveryAddress} />
        </section>
        <button type="submit" className="button" disabled={isSubmitting}>
          Save Changes
        </button>
      </form>
      <section id="security" aria-labelledby="security-heading" style={{ maxWidth: 640 }}>
        <h2 id="security-heading">Security</h2>
        <ChangePassword />
      </section>
      <section id="orders" aria-labelledby="orders-heading">
        <h2 id="orders-heading">Your Orders</h2>
        {orders.data?.length === 0 && <p>You have no orders yet.</p>}
        {orders.data?.map((order) => (
          <article
            key={order.orderNumber}
            aria-labelledby={`order-${order.orderNumber}`}
            style={{ borderTop: '1px solid var(--color-border)', padding: '0.75rem 0' }}
          >
            <h3 id={`order-${order.orderNumber}`}>
              Order {order.orderNumber}: {statusNames[order.status] ?? order.status}
            </h3>
            <ul>
              {order.lines.map((line, i) => (
                <li key={i}>
                  {line.quantity} × {line.title} ({line.sizeName}): {formatPence(line.lineTotal)}
                </li>
              ))}
            </ul>
            <p>
              Delivery {formatPence(order.deliveryPrice)}
              {order.discountAmount > 0 && `, discount -${formatPence(order.discountAmount)}`}. Total{' '}
              {formatPence(order.total)} (VAT {formatPence(order.totalVat)}). Placed{' '}
              {new Date(order.createdAt).toLocaleDateString('en-GB')}.
              {order.transactionId && ` Transaction ${order.transactionId}.`}
            </p>
          </article>
        ))}
      </section>
    </div>
  );
}

function ChangePassword() {
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
