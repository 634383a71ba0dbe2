import { useLocation } from 'react-router';
import { PageMeta } from '../../lib/page-meta.tsx';

/** Screens that arrive with the checkout, payments and accounts issues stand here until then. */
const titles: Record<string, string> = {
  login: 'Login',
  register: 'Register',
  forgotpassword: 'Forgotten Password',
  'reset-password': 'Reset Password',
  'account-home': 'My Account',
  'verify-account': 'Account Activated',
};

export default function PendingPage() {
  const segment = useLocation().pathname.split('/')[1] ?? '';
  const title = titles[segment] ?? 'Coming soon';
  return (
    <div className="container page">
      <PageMeta title={title} />
      <h1 className="page-title">{title}</h1>
      <p>This part of the shop is being built. Please come back soon.</p>
    </div>
  );
}
