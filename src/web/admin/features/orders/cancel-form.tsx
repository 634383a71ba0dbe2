import { useState, type FormEvent } from 'react';
import { Field } from '../../ui/field.tsx';

/** Cancelling asks twice: the order's stock and voucher use are released, and it cannot be undone. */
export function CancelForm(props: { onSubmit: (reason: string | undefined) => Promise<unknown> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    setBusy(true);
    try {
      await props.onSubmit(reason || undefined);
    } finally {
      setBusy(false);
    }
  }

  if (!confirming) {
    return (
      <button type="button" className="button button-secondary adm-small" onClick={() => setConfirming(true)}>
        Cancel this order…
      </button>
    );
  }
  return (
    <form aria-label="Cancel the order" className="adm-form" onSubmit={(event) => void submit(event)}>
      <p>Its stock goes back on sale and its voucher can be used again. This cannot be undone.</p>
      <Field id="cancel-reason" name="reason" label="Reason (optional)" maxLength={500} autoFocus />
      <div className="adm-row">
        <button type="submit" className="button adm-small" disabled={busy}>
          Yes, cancel the order
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={() => setConfirming(false)}>
          Keep the order
        </button>
      </div>
    </form>
  );
}
