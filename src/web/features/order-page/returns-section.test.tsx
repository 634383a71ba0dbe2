// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderReturns, ShopperReturn } from '../../../contract/returns.ts';
import { ReturnsSection } from './returns-section.tsx';

const view: OrderReturns = {
  orderNumber: 100077,
  lines: [
    {
      orderLineId: 5,
      title: 'Punjabi Dhol',
      sizeName: 'Large',
      unitPrice: 25000,
      returnable: 2,
      windowEndsAt: '2026-06-15T23:59:59.999Z',
      madeToOrder: true,
      reasons: ['faulty', 'damaged_in_transit', 'wrong_item'],
    },
  ],
  returns: [],
  returnAddress: 'The Dhol Shop, 1 High Street, Leicester',
};
const made: ShopperReturn = {
  raNumber: 'RA-100077-1',
  status: 'requested',
  reason: 'faulty',
  note: '',
  requestedAt: '2026-06-02T10:00:00.000Z',
  refusalReason: null,
  refundAmount: null,
  lines: [{ orderLineId: 5, title: 'Punjabi Dhol', sizeName: 'Large', quantity: 1, restocked: null, condition: null }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the returns section of the order page', () => {
  it('asks for a return of chosen units with a reason, sent as multipart, and shows its RA number', async () => {
    let asked = false;
    const fetch = vi.fn(async (_path: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        asked = true;
        return Response.json(made, { status: 201 });
      }
      return Response.json(asked ? { ...view, returns: [{ ...made, status: 'authorised' }] } : view);
    });
    vi.stubGlobal('fetch', fetch);
    document.cookie = 'XSRF-TOKEN=t';
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ReturnsSection orderKey="100077.key" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Made to order: it cannot be returned if you changed your mind.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'REQUEST RETURN' }));
    expect(screen.getByText('Please choose why you are returning it')).toBeTruthy();
    expect(screen.getByText('Please choose at least one item to return')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText(/Punjabi Dhol \(Large\): how many/));
    await userEvent.type(screen.getByLabelText(/Punjabi Dhol \(Large\): how many/), '1');
    await userEvent.selectOptions(screen.getByLabelText('Why are you returning it?'), 'faulty');
    expect(screen.getByLabelText(/Photos of the damage or fault/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'REQUEST RETURN' }));
    expect(await screen.findByText(/your return RA-100077-1 is requested/)).toBeTruthy();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/api/order-page/100077.key/returns');
    const body = post[1]!.body as FormData;
    expect([body.get('reason'), body.get('lines')]).toEqual([
      'faulty',
      JSON.stringify([{ orderLineId: 5, quantity: 1 }]),
    ]);
    // Authorised: the number, and where to send it.
    expect(await screen.findByText(/The Dhol Shop, 1 High Street, Leicester/)).toBeTruthy();
  });

  it('keeps the request’s confirmation, with the focus on it, when nothing is left to return', async () => {
    let asked = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_path: string, init?: RequestInit) => {
        if (init?.method === 'POST') {
          asked = true;
          return Response.json(made, { status: 201 });
        }
        // Once asked, every unit is in the return: the form has nothing left to offer.
        return Response.json(
          asked ? { ...view, lines: [{ ...view.lines[0]!, returnable: 0 }], returns: [made] } : view,
        );
      }),
    );
    document.cookie = 'XSRF-TOKEN=t';
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ReturnsSection orderKey="100077.key" />
      </QueryClientProvider>,
    );
    await userEvent.clear(await screen.findByLabelText(/Punjabi Dhol \(Large\): how many/));
    await userEvent.type(screen.getByLabelText(/Punjabi Dhol \(Large\): how many/), '2');
    await userEvent.selectOptions(screen.getByLabelText('Why are you returning it?'), 'faulty');
    await userEvent.click(screen.getByRole('button', { name: 'REQUEST RETURN' }));
    await vi.waitFor(() => expect(screen.queryByRole('form', { name: 'Request a return' })).toBeNull());
    const said = screen.getByText(/your return RA-100077-1 is requested/);
    expect(document.activeElement).toBe(said);
  });

  it('says returns open once the goods arrive, not that nothing can be returned, before anything is sent', async () => {
    const nothingYet = { ...view, lines: [{ ...view.lines[0]!, returnable: 0, windowEndsAt: null }] };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(nothingYet)),
    );
    const shown = (notYetReceived?: 'delivery' | 'collection') =>
      render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <ReturnsSection orderKey="100077.key" {...(notYetReceived ? { notYetReceived } : {})} />
        </QueryClientProvider>,
      );
    shown('delivery');
    expect(
      await screen.findByText(
        'You can return items within 14 days of their arrival. Until they are sent, see “Cancel your order” above.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Nothing on this order can be returned now.')).toBeNull();
    cleanup();
    shown('collection');
    expect(
      await screen.findByText(
        'You can return items within 14 days of collecting them. Until they are ready, see “Cancel your order” above.',
      ),
    ).toBeTruthy();
    cleanup();
    shown();
    expect(await screen.findByText('Nothing on this order can be returned now.')).toBeTruthy();
  });
});
