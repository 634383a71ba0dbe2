import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageMeta } from '../../lib/page-meta.tsx';
import { activateAccount } from './api/registration.ts';

/** Account activated (docs/rules.md#pages-and-routes): a missing or failed token goes to /. */
export default function VerifyAccountPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [activated, setActivated] = useState(false);
  const asked = useRef(false);
  useEffect(() => {
    // Once only: the link is single-use, and development mode runs effects twice.
    if (asked.current) return;
    asked.current = true;
    activateAccount(token).then(
      () => setActivated(true),
      () => void navigate('/', { replace: true }),
    );
  }, [token, navigate]);
  return (
    <div className="container page">
      <PageMeta title="Account Activated" />
      <h1 className="page-title">{activated ? 'Account Activated' : 'Activating your account…'}</h1>
      {activated && (
        <>
          <p>Thank you: your e-mail address is confirmed and you can now log in.</p>
          <Link to="/account-home" className="button">
            ACCOUNT
          </Link>
        </>
      )}
    </div>
  );
}
