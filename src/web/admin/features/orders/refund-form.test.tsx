// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from '../../../../contract/admin/orders.ts';
import { RefundForm } from './refund-form.tsx';

const line = (id: number, quantity: number, restocked = 0): OrderDetail['lines'][number] => ({
  id,
  productId: id,
  productStockId: id,
  title: `Harmonium ${id}`,
  sizeName: 'Standard',
  unitPrice: 1000,
  quantity,
  lineTotal: 1000 * quantity,
  restocked,
  dispatched: 0,
  toDispatch: quantity - restocked,
});
const order = {
  lines: [line(7, 2), line(8, 3, 1)],
  total: 6295,
  refundedTotal: 1000,
  itemsTotal: 5000,
  discount: 0,
  provider: 'paypal',
};

afterEach(cleanup);

describe('the refund form', () => {
  it('sends pounds as integer pence (0.29 is 29p, not 28) and only the lines to restock', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<RefundForm order={order} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Amount (£)'), '£12.29');
    await userEvent.type(screen.getByLabelText('Reason'), 'Damaged in transit');
    await userEvent.clear(screen.getByLabelText(/Harmonium 8/));
    await userEvent.type(screen.getByLabelText(/Harmonium 8/), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Record refund' }));
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, record £12.29' }));
    expect(onSubmit).toHaveBeenCalledWith({
      amount: 1229,
      reason: 'Damaged in transit',
      restock: [{ lineId: 8, quantity: 2 }],
    });
  });

  it('refuses what is not money, more than is left, and more units than can go back', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<RefundForm order={order} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Amount (£)'), '12.345');
    await userEvent.click(screen.getByRole('button', { name: 'Record refund' }));
    expect(await screen.findByText('Please enter an amount in pounds, such as 12.50')).toBeTruthy();
    expect(screen.getByText('Please give a reason')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Amount (£)'));
    await userEvent.type(screen.getByLabelText('Amount (£)'), '52.96');
    await userEvent.clear(screen.getByLabelText(/Harmonium 8/));
    await userEvent.type(screen.getByLabelText(/Harmonium 8/), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Record refund' }));
    expect(await screen.findByText('At most £52.95 is left to refund')).toBeTruthy();
    expect(screen.getByText('At most 2 can go back')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps what was typed when the server refuses', async () => {
    render(<RefundForm order={order} onSubmit={async () => false} />);
    await userEvent.type(screen.getByLabelText('Amount (£)'), '5');
    await userEvent.type(screen.getByLabelText('Reason'), 'Goodwill');
    await userEvent.click(screen.getByRole('button', { name: 'Record refund' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, record £5.00' }));
    expect((screen.getByLabelText('Amount (£)') as HTMLInputElement).value).toBe('5');
  });

  it('asks once more before money goes back through the provider, and can go back to change it', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<RefundForm order={{ ...order, provider: 'opayo', refundsThrough: 'provider' }} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Amount (£)'), '12.50');
    await userEvent.type(screen.getByLabelText('Reason'), 'Goodwill');
    await userEvent.click(screen.getByRole('button', { name: 'Refund through the provider' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain(
      'Send £12.50 back to the customer through Opayo, to the way they paid? It cannot be undone.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Change it' }));
    expect(screen.queryByRole('button', { name: 'Yes, refund £12.50' })).toBeNull();
    await userEvent.clear(screen.getByLabelText('Amount (£)'));
    await userEvent.type(screen.getByLabelText('Amount (£)'), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Refund through the provider' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, refund £10.00' }));
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({ amount: 1000, reason: 'Goodwill', restock: [] });
  });

  it('restates a recorded refund and the units going back before it records them', async () => {
    const onSubmit = vi.fn(async () => true);
    render(<RefundForm order={order} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Amount (£)'), '10');
    await userEvent.type(screen.getByLabelText('Reason'), 'Returned');
    await userEvent.clear(screen.getByLabelText(/Harmonium 7/));
    await userEvent.type(screen.getByLabelText(/Harmonium 7/), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Record refund' }));
    const question = screen.getByRole('alert').textContent;
    expect(question).toContain('Record £10.00 as refunded? It moves no money: make the refund in PayPal’s own pages.');
    expect(question).toContain('Put back in stock: 1 × Harmonium 7 (Standard).');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('proposes the amount for the units chosen to restock, less their share of a voucher, and leaves a typed amount alone', async () => {
    const withVoucher = { ...order, itemsTotal: 5000, discount: 500 };
    const { unmount } = render(<RefundForm order={withVoucher} onSubmit={vi.fn(async () => true)} />);
    await userEvent.clear(screen.getByLabelText(/Harmonium 7/));
    await userEvent.type(screen.getByLabelText(/Harmonium 7/), '2');
    // Two units at £10 less 10% off: £18.00, still editable.
    expect((screen.getByLabelText('Amount (£)') as HTMLInputElement).value).toBe('18.00');
    await userEvent.clear(screen.getByLabelText(/Harmonium 8/));
    await userEvent.type(screen.getByLabelText(/Harmonium 8/), '1');
    expect((screen.getByLabelText('Amount (£)') as HTMLInputElement).value).toBe('27.00');
    unmount();

    render(<RefundForm order={withVoucher} onSubmit={vi.fn(async () => true)} />);
    await userEvent.type(screen.getByLabelText('Amount (£)'), '3.50');
    await userEvent.clear(screen.getByLabelText(/Harmonium 7/));
    await userEvent.type(screen.getByLabelText(/Harmonium 7/), '1');
    expect((screen.getByLabelText('Amount (£)') as HTMLInputElement).value).toBe('3.50');
  });
});
