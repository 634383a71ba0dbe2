// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Voucher, VoucherDetail } from '../../../../contract/admin/vouchers.ts';
import VoucherPage from './voucher-page.tsx';
import VouchersPage, { voucherState } from './vouchers-page.tsx';

const voucher: Voucher = {
  id: 4,
  code: 'DIWALI15',
  kind: 'percent',
  amount: 15,
  minSpend: 2500,
  validFrom: '2026-10-01',
  validTo: '2026-11-15',
  usageLimit: null,
  timesUsed: 1,
  active: true,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(path: string, answer: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(answer)),
  );
  // A data router, as the back office runs in: the voucher form asks before unsaved changes are left.
  const router = createMemoryRouter(
    [
      { path: '/vouchers', element: <VouchersPage /> },
      { path: '/vouchers/:id', element: <VoucherPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('vouchers in the back office', () => {
  it('asks for the minimum spend in pounds, and says so when it is not an amount', async () => {
    show('/vouchers/new', {});
    const minimum = screen.getByLabelText('Minimum spend (£)');
    await userEvent.clear(minimum);
    await userEvent.type(minimum, 'ten');
    await userEvent.click(screen.getByRole('button', { name: /save|create/i }));
    const error = await screen.findByText(/minimum spend/i, { selector: '.adm-error, [id$="-error"]' });
    expect(error.textContent).toMatch(/pounds/);
    expect(error.textContent).not.toMatch(/pence/);
  });

  it('reads a voucher past its last day as expired, one not yet begun as not started, one used up as used up', () => {
    const today = '2026-11-28';
    expect(voucherState(voucher, today)).toBe('Expired');
    expect(voucherState({ ...voucher, validTo: '2026-12-31' }, today)).toBe('Active');
    expect(voucherState({ ...voucher, validFrom: '2026-12-01', validTo: '2026-12-31' }, today)).toBe('Not started');
    expect(voucherState({ ...voucher, validTo: '2026-12-31', usageLimit: 1 }, today)).toBe('Used up');
    expect(voucherState({ ...voucher, validTo: '2026-12-31', active: false }, today)).toBe('Switched off');
    expect(voucherState({ ...voucher, validTo: today }, today)).toBe('Active');
  });

  it('shows each voucher’s state in the list', async () => {
    show('/vouchers', { vouchers: [voucher], total: 1, page: 1, pageSize: 25 });
    const row = within((await screen.findByRole('link', { name: 'DIWALI15' })).closest('tr')!);
    expect(row.getByText('Expired')).toBeTruthy();
  });

  it('counts a single use in the singular', async () => {
    const detail: VoucherDetail = { ...voucher, uses: [], useCount: 1 };
    show('/vouchers/4', detail);
    expect(await screen.findByText(/Used 1 time by orders holding it now; 1 order names it in all/)).toBeTruthy();
  });
});
