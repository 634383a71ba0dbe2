// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from '../../../../contract/admin/orders.ts';
import { OrderActions } from './order-page.tsx';

/** The fields the actions read of a paid collection order, the lifecycle offering `actions`. */
const collectionOrder = (actions: OrderDetail['actions']) =>
  ({
    orderNumber: 100042,
    deliveryKind: 'collection',
    refundsThrough: 'outside',
    lines: [],
    actions,
  }) as unknown as OrderDetail;

/** The actions, each answered by the server with the order as `answer`; `may`: what the member's role allows. */
function renderActions(order: OrderDetail, answer: Partial<OrderDetail>, may: (route: string) => boolean = () => true) {
  const fetch = vi.fn(async (_path: string, _init?: RequestInit) => Response.json({ ...order, ...answer }));
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <OrderActions order={order} may={may} />
    </QueryClientProvider>,
  );
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the actions of an order collected from the shop', () => {
  it('makes it ready for collection, and says the customer was e-mailed', async () => {
    const fetch = renderActions(collectionOrder(['ready-for-collection', 'refund']), { actions: ['collect'] });
    expect(screen.queryByRole('heading', { name: 'Dispatch' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as delivered' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as collected' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Ready for collection' }));
    expect(fetch.mock.calls.map(([path, init]) => [path, init?.method])).toEqual([
      ['/api/admin/orders/100042/ready-for-collection', 'POST'],
    ]);
    expect((await screen.findByRole('status')).textContent).toBe(
      'Ready for collection; the customer has been e-mailed to come for it.',
    );
  });

  it('marks it collected once it is ready', async () => {
    const fetch = renderActions(collectionOrder(['collect']), { actions: [] });
    expect(screen.queryByRole('button', { name: 'Ready for collection' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Mark as collected' }));
    expect(fetch.mock.calls.map(([path, init]) => [path, init?.method])).toEqual([
      ['/api/admin/orders/100042/collect', 'POST'],
    ]);
    expect((await screen.findByRole('status')).textContent).toBe('Marked as collected.');
  });
});

describe('the actions a role allows', () => {
  it('shows a packer the dispatch form alone, whatever else the lifecycle offers', () => {
    renderActions(
      {
        ...collectionOrder(['dispatch', 'refund', 'cancel', 'resend-confirmation']),
        paidAt: '2026-11-01',
      } as OrderDetail,
      {},
      (route) => route === 'POST /orders/:orderNumber/dispatch',
    );
    expect(screen.getByRole('heading', { name: 'Dispatch' })).toBeTruthy();
    for (const name of ['Refund', 'Cancel', "Customer's order page"]) {
      expect(screen.queryByRole('heading', { name })).toBeNull();
    }
    expect(screen.queryByRole('button', { name: 'Send the confirmation again' })).toBeNull();
  });
});
