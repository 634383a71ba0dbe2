import { useState, type FormEvent } from 'react';
import { messages } from '../../../contract/messages.ts';
import { limitMessage } from '../../lib/api.ts';
import { basketStore } from '../../lib/basket/basket-store.ts';
import styles from './checkout.module.css';

/** Voucher Code: the code is tried by verifying the basket with it; the outcome is said below. */
export function VoucherSection() {
  const [voucher, setVoucher] = useState('');
  const [voucherMessage, setVoucherMessage] = useState<{ ok: boolean; text: string } | undefined>();

  async function applyVoucher(event: FormEvent) {
    event.preventDefault();
    const code = voucher.trim();
    if (!code) return;
    setVoucher('');
    const before = basketStore.getSnapshot().appliedVouchers?.[0]?.code;
    try {
      const result = await basketStore.verify({ voucherCodeAttempt: code });
      const outcome = result.lastVoucherOutcome ?? 2;
      const now = result.appliedVouchers[0]?.code;
      // docs/rules.md#vouchers: one per basket; replacing one is said, not silent.
      const replaced = outcome === 1 && before && now && now !== before;
      setVoucherMessage({
        ok: outcome === 1,
        text: replaced
          ? messages.voucherReplaced(now, before)
          : (messages.voucher[outcome] ?? messages.voucher[2] ?? ''),
      });
    } catch (error) {
      setVoucherMessage({ ok: false, text: limitMessage(error) ?? messages.voucher[2] ?? '' });
    }
  }

  return (
    <section className={styles.panel} aria-labelledby="voucher-heading">
      <h2 id="voucher-heading">Voucher Code</h2>
      <form className={styles.actions} onSubmit={applyVoucher} noValidate>
        <label htmlFor="voucher-code">If you have a discount code please enter it below.</label>
        <input
          id="voucher-code"
          className="input"
          value={voucher}
          maxLength={40}
          autoComplete="off"
          onChange={(e) => setVoucher(e.target.value)}
        />
        <button type="submit" className="button button-secondary">
          Apply
        </button>
      </form>
      <p role="status" className={voucherMessage?.ok ? styles.success : 'field-error'}>
        {voucherMessage?.text ?? ''}
      </p>
    </section>
  );
}
