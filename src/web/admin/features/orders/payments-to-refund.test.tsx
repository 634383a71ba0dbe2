// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsToRefund } from './payments-to-refund.tsx';

afterEach(cleanup);

describe('payments to refund on the order page', () => {
  it('shows nothing for an order that kept every payment it received', () => {
    const { container } = render(<PaymentsToRefund order={{ paymentsToRefund: [] }} />);
    expect(container.innerHTML).toBe('');
  });

  it('names each payment to send back, by provider, reference and amount', () => {
    render(
      <PaymentsToRefund
        order={{
          paymentsToRefund: [
            {
              id: 1,
              provider: 'paypal-checkout',
              reference: 'SECONDCAPTURE0001',
              amount: 3495,
              reason: 'paid twice',
              receivedAt: '2026-11-23T09:00:00.000Z',
            },
          ],
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Payments to refund' })).toBeTruthy();
    expect(screen.getByText(/received a payment it should not keep/)).toBeTruthy();
    const item = screen.getByRole('listitem').textContent ?? '';
    expect(item).toContain('£34.95');
    expect(item).toContain('SECONDCAPTURE0001');
    expect(item).toContain('paid twice');
  });
});
