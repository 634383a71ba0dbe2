// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CancellationOptions } from '../../../contract/cancellation.ts';
import { CancelSection } from './cancel-section.tsx';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const options: CancellationOptions = {
  orderNumber: 1042,
  cancellable: true,
  notCancellable: null,
  lines: [
    { lineId: 1, title: 'Tabla set', sizeName: 'Standard', quantity: 2, unitPrice: 2500, cancellableUnits: 2 },
    { lineId: 2, title: 'Dhol', sizeName: 'Large', quantity: 1, unitPrice: 1200, cancellableUnits: 1 },
  ],
  pricing: { itemsTotal: 6200, discount: 0, deliveryPrice: 995, leftToRefund: 7195, goodsTakenBack: 0 },
  wholeOrderRefund: 7195,
  refundsTo: 'to the card you paid with',
};

function mount(posted: (body: unknown) => Response) {
  const calls: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/api/csrf-token')) return answer(200, {});
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body));
        calls.push(body);
        return posted(body);
      }
      return answer(200, options);
    }),
  );
  const onChanged = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CancelSection orderKey="1042.abc" onChanged={onChanged} />
    </QueryClientProvider>,
  );
  return { calls, onChanged };
}

describe('CancelSection', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('cancels chosen units after asking once more with the refund restated, and moves focus to the result', async () => {
    const { calls, onChanged } = mount(() =>
      answer(200, {
        outcome: 'refunded',
        whole: false,
        amount: 2500,
        refundsTo: 'to the card you paid with',
        cancelled: [{ lineId: 1, title: 'Tabla set', sizeName: 'Standard', quantity: 1 }],
        message:
          'Those items are cancelled; the rest of your order will be sent as usual. We have refunded £25.00 to the card you paid with.',
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Some items'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one item to cancel.');
    await user.selectOptions(screen.getByLabelText('Tabla set (Standard): units to cancel'), '1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/We will refund £25.00 to the card you paid with/)).toBeTruthy();
    // Each item in words: how many of which, never "1 x".
    expect(screen.getByText('Tabla set (Standard): 1 to cancel')).toBeTruthy();
    // Keeping the order goes back; nothing was sent.
    await user.click(screen.getByRole('button', { name: 'Keep my order' }));
    expect(calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Cancel and refund £25.00' }));
    const heading = await screen.findByRole('heading', { name: 'Items cancelled' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText('Tabla set (Standard): 1 cancelled')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/We have refunded £25.00/);
    expect(calls).toEqual([{ lines: [{ lineId: 1, quantity: 1 }] }]);
    expect(onChanged).toHaveBeenCalledOnce();
  });

  it('cancels the whole order with its delivery, and shows a refusal in the shopper’s words', async () => {
    const { calls, onChanged } = mount(() =>
      answer(409, {
        error: {
          code: 'CONFLICT',
          message:
            'Sorry, your order has just been sent, so it can no longer be cancelled. You can return it once it arrives.',
        },
      }),
    );
    const user = userEvent.setup();
    // Nothing is chosen for the shopper: Continue alone asks what to cancel.
    const whole = (await screen.findByLabelText('The whole order (refund £71.95)')) as HTMLInputElement;
    expect(whole.checked).toBe(false);
    expect((screen.getByLabelText('Some items') as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Choose the whole order or some items to cancel.')).toBeTruthy();
    await user.click(whole);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(/including the delivery charge/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel and refund £71.95' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/just been sent.*return it once it arrives/);
    expect(calls).toEqual([{ whole: true }]);
    expect(onChanged).not.toHaveBeenCalled();
  });
});
