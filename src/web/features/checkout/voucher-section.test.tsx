// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { basketStore } from '../../lib/basket/basket-store.ts';
import { pricedBasket } from '../../../../test/helpers/priced-basket.ts';
import { VoucherSection } from './voucher-section.tsx';

function answerWith(code: string) {
  return pricedBasket({
    appliedVouchers: [{ code }],
    lastVoucherOutcome: 1,
    itemCount: 2,
    itemsTotal: 6000,
    discountAmount: 500,
  });
}

describe('the voucher box', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    basketStore.wipe();
  });

  it('says which voucher now applies when a second one replaces the first', async () => {
    const applied = ['TENOFF', 'FIVEOFF'];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify(answerWith(applied.shift() ?? 'FIVEOFF')), {
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    // The basket holds TENOFF; the shopper tries FIVEOFF, which the server applies instead.
    await basketStore.verify({ voucherCodeAttempt: 'TENOFF' });
    const user = userEvent.setup();
    render(<VoucherSection />);
    await user.type(screen.getByLabelText('If you have a discount code please enter it below.'), 'fiveoff');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Voucher applied! FIVEOFF now applies in place of TENOFF.')).toBeTruthy();
  });

  it('says when to try again when the voucher checks are limited', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' } }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '20' },
          }),
      ),
    );
    const user = userEvent.setup();
    render(<VoucherSection />);
    await user.type(screen.getByLabelText('If you have a discount code please enter it below.'), 'guessme');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText('Too many attempts from your connection. Please try again in 20 seconds.'),
    ).toBeTruthy();
  });
});
