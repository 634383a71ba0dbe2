import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { OrderLinkRevoked } from '../../../../contract/order-page.ts';
import { requestJson } from '../../../lib/api.ts';
import { orderQueryOptions } from './api/orders.ts';

/**
 * Revoking the customer's order page links (docs/back-office.md#orders): asked once more, saying
 * what happens, then every earlier link stops opening the page and the customer is e-mailed a new one.
 */
export function OrderLinkRevoke(props: {
  orderNumber: number;
  email: string;
  onDone: (message: string) => void;
  onProblem: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function revoke() {
    setBusy(true);
    try {
      const answer = await requestJson<OrderLinkRevoked>(`/api/admin/orders/${props.orderNumber}/order-link/revoke`, {
        method: 'POST',
        body: '{}',
      });
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: orderQueryOptions(props.orderNumber).queryKey });
      props.onDone(`The old order page links no longer work; a new link has been e-mailed to ${answer.to}.`);
    } catch (error) {
      props.onProblem(error);
    } finally {
      setBusy(false);
    }
  }

  if (!confirming) {
    return (
      <p>
        <button type="button" className="button button-secondary adm-small" onClick={() => setConfirming(true)}>
          Revoke the order page link and e-mail a new one
        </button>
      </p>
    );
  }
  return (
    <div role="group" aria-labelledby="revoke-link-question" className="adm-form">
      <p id="revoke-link-question">
        Every link to this order&apos;s page sent so far (in its e-mails, or passed on) will stop working, and a new
        link will be e-mailed to {props.email}. Revoke the link?
      </p>
      <div className="adm-row">
        <button type="button" className="button adm-small" disabled={busy} onClick={() => void revoke()}>
          Yes, revoke it and e-mail a new link
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={() => setConfirming(false)}>
          Keep the current link
        </button>
      </div>
    </div>
  );
}
