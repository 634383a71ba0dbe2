// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from '../../../../contract/admin/orders.ts';
import { OrderActions } from './order-page.tsx';

/** The fields the actions read of an order; `paidAt` null for one never paid. */
const anOrder = (paidAt: string | null) =>
  ({
    orderNumber: 100042,
    email: 'asha@example.com',
    paidAt,
    deliveryKind: 'delivery',
    refundsThrough: 'outside',
    lines: [],
    actions: [],
  }) as unknown as OrderDetail;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderActions(order: OrderDetail) {
  const fetch = vi.fn(async (_path: string, _init?: RequestInit) =>
    Response.json({ orderNumber: 100042, to: 'asha@example.com' }),
  );
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <OrderActions order={order} may={() => true} />
    </QueryClientProvider>,
  );
  return fetch;
}

describe("revoking the customer's order page link", () => {
  it('asks once more, saying what happens, then revokes and says a new link was e-mailed', async () => {
    const fetch = renderActions(anOrder('2026-11-20T10:00:00.000Z'));
    await userEvent.click(screen.getByRole('button', { name: 'Revoke the order page link and e-mail a new one' }));
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('group').textContent).toContain(
      'will stop working, and a new link will be e-mailed to asha@example.com',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Yes, revoke it and e-mail a new link' }));
    expect(fetch.mock.calls.map(([path, init]) => [path, init?.method])).toEqual([
      ['/api/admin/orders/100042/order-link/revoke', 'POST'],
    ]);
    expect((await screen.findByRole('status')).textContent).toBe(
      'The old order page links no longer work; a new link has been e-mailed to asha@example.com.',
    );
  });

  it('can be called off, and is not offered for an order never paid', async () => {
    const fetch = renderActions(anOrder('2026-11-20T10:00:00.000Z'));
    await userEvent.click(screen.getByRole('button', { name: 'Revoke the order page link and e-mail a new one' }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep the current link' }));
    expect(fetch).not.toHaveBeenCalled();
    cleanup();
    renderActions(anOrder(null));
    expect(screen.queryByRole('button', { name: 'Revoke the order page link and e-mail a new one' })).toBeNull();
  });
});
