import { shop } from '../../lib/shop.ts';

/**
 * Our own simple marks for the ways to pay, drawn here (no third-party assets), each with a text
 * alternative, for the ways this shop's payment page takes. They stand where the provider's logo
 * belongs, beside SECURE CHECKOUT.
 */
export function PaymentMarks() {
  return (
    <p style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', margin: '0 0 0.75rem' }}>
      {shop.takes.includes('paypal') && <PaypalMark />}
      {shop.takes.includes('card') && <CardMark />}
    </p>
  );
}

function PaypalMark() {
  return (
    <svg role="img" aria-label="PayPal" width="64" height="40" viewBox="0 0 64 40">
      <rect x="0.5" y="0.5" width="63" height="39" rx="6" fill="#fff" stroke="#5f6b7a" />
      <path d="M22 30 L26 10 h8 a6 6 0 0 1 0 12 h-6 l-1.6 8 z" fill="#1d3f8f" />
      <path d="M27 33 L31 14 h6 a5 5 0 0 1 0 10 h-5 l-1.8 9 z" fill="#2f7fd1" opacity="0.85" />
    </svg>
  );
}

function CardMark() {
  return (
    <svg role="img" aria-label="Card payments" width="64" height="40" viewBox="0 0 64 40">
      <rect x="0.5" y="0.5" width="63" height="39" rx="6" fill="#fff" stroke="#5f6b7a" />
      <rect x="8" y="9" width="48" height="24" rx="3" fill="#2b4a6f" />
      <rect x="8" y="14" width="48" height="4" fill="#111" />
      <rect x="12" y="22" width="10" height="7" rx="1.5" fill="#d9b75a" />
      <rect x="30" y="25" width="22" height="2.5" rx="1" fill="#dfe6ee" />
    </svg>
  );
}
