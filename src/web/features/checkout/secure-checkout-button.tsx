import { useId } from 'react';
import { Link } from 'react-router';

/**
 * SECURE CHECKOUT, the spec's label, with the obligation to pay stated beside it and read with it
 * (Consumer Contracts Regulations 2013, regulation 14(3); DESIGN.md section 9), and the shopper's
 * right to cancel linked.
 */
export function SecureCheckoutButton(props: { onClick: () => void; disabled?: boolean }) {
  const obligation = useId();
  return (
    <>
      <p id={obligation}>
        Pressing SECURE CHECKOUT places your order with an obligation to pay. You may cancel it within 14 days of
        receiving it (<Link to="/returns">returns and cancellations</Link>).
      </p>
      <button
        type="button"
        className="button"
        onClick={props.onClick}
        disabled={props.disabled}
        aria-describedby={obligation}
      >
        SECURE CHECKOUT
      </button>
    </>
  );
}
