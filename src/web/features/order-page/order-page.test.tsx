// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderPage as OrderPageView } from '../../../contract/order-page.ts';
import OrderPage from './order-page.tsx';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const KEY = '100042.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

const order: OrderPageView = {
  orderNumber: 100042,
  placedAt: '2026-11-20T10:00:00.000Z',
  payment: { status: 'partially_refunded', words: 'Paid, partly refunded' },
  fulfilment: { status: 'dispatched', words: 'On its way' },
  deliveryKind: 'delivery',
  lines: [
    {
      id: 1,
      title: 'Dholak',
      sizeName: 'Large',
      quantity: 2,
      unitPrice: 2500,
      lineTotal: 5000,
      pictureUrl: '/images/dholak.jpg',
      dispatched: 2,
      refunded: 0,
    },
    {
      id: 2,
      title: 'Tabla cover',
      sizeName: 'One size',
      quantity: 1,
      unitPrice: 1999,
      lineTotal: 1999,
      pictureUrl: null,
      dispatched: 0,
      refunded: 1,
    },
  ],
  totals: {
    items: 6999,
    discount: 0,
    voucherCode: null,
    delivery: 995,
    deliveryMethod: 'Express delivery',
    vat: 1332,
    totalPaid: 7994,
    refunded: 1999,
  },
  billingAddress: { lines: ['Asha Kaur', '12 Market Street', 'West Bromwich', 'B70 7NJ', 'United Kingdom'] },
  deliveryAddress: { lines: ['Asha Kaur', '12 Market Street', 'West Bromwich', 'B70 7NJ', 'United Kingdom'] },
  collectionPoint: null,
  fulfilments: [
    {
      dispatchedAt: '2026-11-21T10:00:00.000Z',
      lines: [{ orderLineId: 1, title: 'Dholak', sizeName: 'Large', quantity: 2 }],
      parcels: [
        {
          carrier: 'Royal Mail',
          trackingNumber: 'AB123456789GB',
          trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
        },
      ],
      untrackedService: null,
    },
  ],
  invoice: {
    number: 'INV-000007',
    url: '/api/documents/invoice/100042/sig',
    issuedAt: '2026-11-20T10:00:00.000Z',
    amount: null,
  },
  creditNotes: [
    {
      number: 'CN-000003',
      url: '/api/documents/credit-note/3/sig',
      issuedAt: '2026-11-22T10:00:00.000Z',
      amount: 1999,
    },
  ],
};

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[`/order/${KEY}`]}>
        <Routes>
          <Route path="/order/:key" element={<OrderPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the customer's order page", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the status, lines, totals, tracking and documents of the order its key opens', async () => {
    const fetch = vi.fn(async (_url: string) => answer(200, order));
    vi.stubGlobal('fetch', fetch);
    show();
    expect(await screen.findByRole('heading', { level: 1, name: 'Order 100042' })).toBeTruthy();
    expect(String(fetch.mock.calls[0]?.[0])).toBe(`/api/order-page/${encodeURIComponent(KEY)}`);
    expect(screen.getByTestId('order-payment').textContent).toBe('Paid, partly refunded');
    expect(screen.getByTestId('order-fulfilment').textContent).toBe('On its way');
    const lines = screen.getByRole('table', { name: 'The products on order 100042' });
    const cover = within(lines).getByRole('row', { name: /Tabla cover \(One size\)/ });
    expect(
      within(cover)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1', '0', '1', '£19.99', '£19.99']);
    const totals = screen.getByRole('table', { name: 'Totals' });
    expect(within(totals).getByRole('row', { name: /Express delivery/ }).textContent).toContain('£9.95');
    expect(within(totals).getByRole('row', { name: /Refunded so far/ }).textContent).toContain('£19.99');
    expect(screen.getByRole('link', { name: /AB123456789GB/ }).getAttribute('href')).toContain('royalmail.com');
    expect(screen.getByRole('link', { name: /Download the VAT invoice INV-000007/ }).getAttribute('href')).toBe(
      '/api/documents/invoice/100042/sig',
    );
    expect(screen.getByRole('link', { name: /Download credit note CN-000003 for £19.99/ }).getAttribute('href')).toBe(
      '/api/documents/credit-note/3/sig',
    );
  });

  it('says nothing will be sent once the whole order was cancelled before dispatch', async () => {
    const cancelled: OrderPageView = {
      ...order,
      payment: { status: 'refunded', words: 'Refunded in full' },
      fulfilment: { status: 'unfulfilled', words: 'Cancelled: nothing will be sent' },
      fulfilments: [],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(200, cancelled)),
    );
    show();
    expect(await screen.findByText('Nothing will be sent: this order was cancelled.')).toBeTruthy();
    expect(screen.queryByText(/We will e-mail you when it is/)).toBeNull();
  });

  it('says a link that opens no order is not valid, and asks no more', async () => {
    const fetch = vi.fn(async () =>
      answer(404, { error: { code: 'NOT_FOUND', message: 'This order link is not valid.' } }),
    );
    vi.stubGlobal('fetch', fetch);
    show();
    expect(await screen.findByRole('heading', { level: 1, name: 'Order not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This order link is not valid');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
