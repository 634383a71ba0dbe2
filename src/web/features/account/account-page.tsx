import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { AccountAnswer } from '../../../contract/accounts.ts';
import { useAccount, useSignedInMark } from '../../lib/account.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { AccountDetailsForm } from './account-details-form.tsx';
import { signOut } from './api/auth.ts';
import { ChangePassword } from './change-password.tsx';
import { OrderHistory } from './order-history.tsx';

const sections = [
  ['personal', 'Personal Details'],
  ['contact', 'Contact Details'],
  ['billing', 'Billing Address'],
  ['delivery', 'Delivery Address'],
  ['security', 'Security'],
  ['orders', 'Your Orders'],
] as const;

/** My Account (docs/rules.md#accounts-and-sessions): saved for real, with the order history. */
export default function AccountPage() {
  const account = useAccount();
  const signedIn = useSignedInMark() !== null;
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

function AccountForms({ account }: { account: AccountAnswer }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
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
      <AccountDetailsForm account={account} />
      {/* Clear of the forms' buttons above and below it (issue 32). */}
      <section
        id="security"
        aria-labelledby="security-heading"
        style={{ maxWidth: 640, marginBlock: 'var(--space-8)' }}
      >
        <h2 id="security-heading">Security</h2>
        <ChangePassword />
      </section>
      <OrderHistory />
    </div>
  );
}
