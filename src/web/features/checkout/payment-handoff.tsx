import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PaymentHandoffAnswer as Handoff } from '../../../contract/payments.ts';
import { loadHandoff } from './api/payment-handoff.ts';

/**
 * docs/rules.md#checkout: after SECURE CHECKOUT, a hidden form labelled "Redirecting to Payment.."
 * posts itself to the payment provider, or the browser goes to the provider's address, as the
 * server's handoff says (whatever the provider). If the handoff cannot be prepared, the
 * confirmation page shows the order's state instead.
 */
export function PaymentHandoff({ orderCode }: { orderCode: string; orderNumber?: number }) {
  const [handoff, setHandoff] = useState<Handoff | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    loadHandoff(orderCode).then(setHandoff, () => void navigate('/checkout-confirm'));
  }, [orderCode, navigate]);

  useEffect(() => {
    if (handoff?.kind === 'form') form.current?.submit();
    else if (handoff?.kind === 'redirect') window.location.assign(handoff.url);
  }, [handoff]);

  return (
    <div role="status" aria-live="polite">
      <p>Redirecting to Payment..</p>
      {handoff?.kind === 'form' && (
        <form ref={form} method="post" action={handoff.url} aria-label="Redirecting to Payment..">
          {handoff.fields.map((field, i) => (
            <input key={`${field.name}-${i}`} type="hidden" name={field.name} value={field.value} />
          ))}
          <noscript>
            <button type="submit" className="button">
              Continue to payment
            </button>
          </noscript>
        </form>
      )}
      {handoff?.kind === 'redirect' && (
        <noscript>
          <a className="button" href={handoff.url}>
            Continue to payment
          </a>
        </noscript>
      )}
    </div>
  );
}
