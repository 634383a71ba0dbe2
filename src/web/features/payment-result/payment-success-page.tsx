import { Link } from 'react-router';
import { PageMeta } from '../../lib/page-meta.tsx';

/** Payment successful (docs/rules.md#pages-and-routes). */
export default function PaymentSuccessPage() {
  return (
    <div className="container page">
      <PageMeta title="Payment Successful" />
      <h1 className="page-title">Payment Successful</h1>
      <p>
        Thank you: your payment has been taken. You will receive an email confirmation with your order details shortly.
      </p>
      <Link to="/home" className="button">
        HOME
      </Link>
    </div>
  );
}
