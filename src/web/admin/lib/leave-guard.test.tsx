// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import VoucherPage from '../features/vouchers/voucher-page.tsx';
import { LeaveGuard } from './leave-guard.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function showNewVoucher() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({})),
  );
  const router = createMemoryRouter(
    [
      {
        element: (
          <LeaveGuard>
            <Outlet />
          </LeaveGuard>
        ),
        children: [
          { path: '/vouchers/:id', element: <VoucherPage /> },
          { path: '/vouchers', element: <h1>All vouchers page</h1> },
        ],
      },
    ],
    { initialEntries: ['/vouchers/new'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('leaving a form with unsaved changes', () => {
  it('goes at once from a form nothing was typed in', async () => {
    const router = showNewVoucher();
    await userEvent.click(await screen.findByRole('link', { name: 'All vouchers' }));
    expect(router.state.location.pathname).toBe('/vouchers');
  });

  it('asks first; staying keeps what was typed, leaving goes', async () => {
    const router = showNewVoucher();
    await userEvent.type(await screen.findByLabelText('Code'), 'DIWALI');
    await userEvent.click(screen.getByRole('link', { name: 'All vouchers' }));
    const question = screen.getByRole('alertdialog', { name: 'You have unsaved changes' });
    expect(document.activeElement?.textContent).toBe('Stay on this page');
    expect(router.state.location.pathname).toBe('/vouchers/new');

    await userEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(question.isConnected).toBe(false);
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('DIWALI');

    await userEvent.click(screen.getByRole('link', { name: 'All vouchers' }));
    await userEvent.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(router.state.location.pathname).toBe('/vouchers');
  });

  it('asks the browser before the tab closes with unsaved changes', async () => {
    showNewVoucher();
    const untouched = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(untouched);
    expect(untouched.defaultPrevented).toBe(false);
    await userEvent.type(await screen.findByLabelText('Code'), 'DIWALI');
    const closing = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(closing);
    expect(closing.defaultPrevented).toBe(true);
  });
});
