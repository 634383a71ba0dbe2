// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '../../../../contract/admin/dashboard.ts';
import DashboardPage from './dashboard-page.tsx';
import { axisDay, axisPounds } from './chart-axes.ts';

const sales = { count: 4, gross: 20000, vat: 3333, refunds: 2500, net: 17500, averageOrder: 5000 };
const dashboard: Dashboard = {
  today: sales,
  week: sales,
  month: sales,
  daily: [{ date: '2026-11-27', count: 4, gross: 20000 }],
  awaitingDispatch: { count: 0, oldest: [] },
  expiringSoon: [],
  lowStock: [{ productId: 3, stockId: 31, title: 'Punjabi Dhol', sizeName: 'Large', stock: 1 }],
  lowStockCount: 24,
  lowStockThreshold: 3,
  topProducts: [{ productId: 3, title: 'Punjabi Dhol', units: 2, gross: 25000 }],
  customers: { new: 3, returning: 1 },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the dashboard', () => {
  it('reads sales net of refunds beside gross, the average order, best sellers, customers, and low stock with links', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(dashboard)),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <DashboardPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const today = within(await screen.findByRole('region', { name: 'Today' }));
    expect(today.getByText('Refunds').nextSibling?.textContent).toBe('£25.00');
    expect(today.getByText('Net of refunds').nextSibling?.textContent).toBe('£175.00');
    expect(today.getByText('Average order').nextSibling?.textContent).toBe('£50.00');
    const top = within(screen.getByRole('region', { name: /Best sellers/ }));
    expect(top.getByRole('link', { name: 'Punjabi Dhol' }).getAttribute('href')).toBe('/products/3');
    expect(top.getByText(/2 units, £250.00/)).toBeTruthy();
    const customers = within(screen.getByRole('region', { name: /Customers this month/ }));
    expect(customers.getByText('New').nextSibling?.textContent).toBe('3');
    expect(customers.getByText('Returning').nextSibling?.textContent).toBe('1');
    const low = within(screen.getByRole('region', { name: /Low stock/ }));
    expect(low.getByRole('link', { name: 'Punjabi Dhol (Large)' }).getAttribute('href')).toBe('/stock/31');
    expect(low.getByRole('link', { name: 'and 23 more' }).getAttribute('href')).toBe('/stock?low=true');
  });

  it('writes the chart’s days in the British way and its amounts in whole pounds', () => {
    expect(axisDay(Date.parse('2026-11-27T12:00:00Z') / 1000)).toBe('27 Nov');
    expect(axisPounds(150000)).toBe('£1,500');
    expect(axisPounds(1234567)).toBe('£12,346');
  });
});
