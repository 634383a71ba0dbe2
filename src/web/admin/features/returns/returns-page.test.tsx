// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminReturn } from '../../../../contract/returns.ts';
import ReturnsPage from './returns-page.tsx';

const base: AdminReturn = {
  id: 7,
  raNumber: 'RA-100088-1',
  orderNumber: 100088,
  email: 'meera@example.com',
  name: 'Meera Joshi',
  status: 'requested',
  reason: 'changed_mind',
  note: 'Too loud for the flat',
  refusalReason: null,
  requestedAt: '2026-06-02T10:00:00.000Z',
  receivedAt: null,
  refundDueAt: null,
  refundedAt: null,
  refundAmount: null,
  deduction: 0,
  deductionReason: null,
  photos: [],
  lines: [
    {
      orderLineId: 3,
      title: 'Punjabi Dhol',
      sizeName: 'Large',
      unitPrice: 25000,
      quantity: 1,
      restocked: null,
      condition: null,
    },
  ],
  refundDue: { goods: 25000, delivery: 495, cap: 25995 },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Returns page', () => {
  it('authorises, receives and refunds a return, less a deduction with its reason', async () => {
    let current = base;
    const fetch = vi.fn(async (path: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        if (path.endsWith('/authorise')) current = { ...current, status: 'authorised' };
        if (path.endsWith('/receive'))
          current = { ...current, status: 'received', refundDueAt: '2026-06-16T10:00:00.000Z' };
        if (path.endsWith('/refund')) current = { ...current, status: 'refunded', refundAmount: 24995, deduction: 500 };
        return Response.json(current);
      }
      return Response.json({ returns: [current] });
    });
    vi.stubGlobal('fetch', fetch);
    document.cookie = 'XSRF-TOKEN=t';
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <ReturnsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Authorise RA-100088-1' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Receive RA-100088-1' }));
    expect(await screen.findByText('Refund due by')).toBeTruthy();
    await userEvent.type(
      screen.getByLabelText('Deduction for diminished value, from the goods only, £ (optional)'),
      '5',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Refund RA-100088-1' }));
    expect(await screen.findByText('Please say why the value is diminished')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Why the value is diminished'), 'Scratched shell');
    await userEvent.click(screen.getByRole('button', { name: 'Refund RA-100088-1' }));
    expect(await screen.findByText('Refunded; the shopper was e-mailed.')).toBeTruthy();
    const posts = fetch.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([path, init]) => [path, JSON.parse(String(init!.body))])).toEqual([
      ['/api/admin/returns/7/authorise', {}],
      ['/api/admin/returns/7/receive', { lines: [{ orderLineId: 3, restock: 1, condition: 'as_new' }] }],
      ['/api/admin/returns/7/refund', { deduction: 500, deductionReason: 'Scratched shell' }],
    ]);
  });
  it('offers no deduction on a faulty, damaged or wrong-item return, refunding it whole', async () => {
    // Regulation 34(9)-(12): a deduction for diminished value belongs to a change of mind only.
    const faulty: AdminReturn = {
      ...base,
      reason: 'faulty',
      status: 'received',
      receivedAt: '2026-06-02T10:00:00.000Z',
      refundDueAt: '2026-06-16T10:00:00.000Z',
    };
    const fetch = vi.fn(async (_path: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? Response.json({ ...faulty, status: 'refunded', refundAmount: 25495 })
        : Response.json({ returns: [faulty] }),
    );
    vi.stubGlobal('fetch', fetch);
    document.cookie = 'XSRF-TOKEN=t';
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <ReturnsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Refund RA-100088-1' }));
    expect(screen.queryByLabelText(/Deduction for diminished value/)).toBeNull();
    expect(await screen.findByText('Refunded; the shopper was e-mailed.')).toBeTruthy();
    const posts = fetch.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([path, init]) => [path, JSON.parse(String(init!.body))])).toEqual([
      ['/api/admin/returns/7/refund', { deduction: 0, deductionReason: '' }],
    ]);
  });

  it('proposes a damaged or faulty return as not back in stock, in the condition its reason says', async () => {
    const damaged: AdminReturn = { ...base, status: 'authorised', reason: 'damaged_in_transit' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ returns: [damaged] })),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <ReturnsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const form = await screen.findByRole('form', { name: 'Receive RA-100088-1' });
    expect((within(form).getByLabelText('Condition') as HTMLSelectElement).value).toBe('damaged');
    expect((within(form).getByLabelText('Units back in stock') as HTMLInputElement).value).toBe('0');
  });
});
