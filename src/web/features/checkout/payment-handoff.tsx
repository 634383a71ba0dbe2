import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PaymentHandoff as Handoff, SagepayConfig } from '../../../contract/payments.ts';
import { requestJson } from '../../lib/api.ts';

/** What is posted where: the provider's address and the fields the server built from the order. */
async function loadHandoff(orderCode: string, orderNumber: number): Promise<Handoff> {
  const response = await fetch('/api/payment-provider');
  const provider = (await response.text()).trim();
  if (provider === 'opayo') {
    const config = await requestJson<SagepayConfig>(
      `/api/sagepay-config/${orderNumber}?code=${encodeURIComponent(orderCode)}`,
    );
    return {
      url: config.endpointUrl,
      fields: [
        { name: 'VPSProtocol', value: config.vpsProtocol },
        { name: 'TxType', value: config.txType },
        { name: 'Vendor', value: config.vendor },
        { name: 'Crypt', value: config.crypt },
      ],
    };
  }
  return requestJson<Handoff>(`/api/paypal-handoff/${encodeURIComponent(orderCode)}`);
}

/**
 * docs/rules.md#checkout: after SECURE CHECKOUT, a hidden form labelled "Redirecting to Payment.."
 * posts itself to the payment provider. If the handoff cannot be prepared, the confirmation
 * page shows the order's state instead.
 */
export function PaymentHandoff({ orderCode, orderNumber }: { orderCode: string; orderNumber: number }) {
  const [handoff, setHandoff] = useState<Handoff | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    loadHandoff(orderCode, orderNumber).then(setHandoff, () => void navigate('/checkout-confirm'));
  }, [orderCode, orderNumber, navigate]);

  useEffect(() => {
    if (handoff) form.current?.submit();
  }, [handoff]);

  return (
    <div role="status" aria-live="polite">
      <p>Redirecting to Payment..</p>
      {handoff && (
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
    </div>
  );
}
