// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderSummary } from '../../../../contract/admin/orders.ts';
import { OrderTable } from './order-table.tsx';

afterEach(cleanup);

const order = (orderNumber: number, fields: Partial<OrderSummary>): OrderSummary => ({
  id: orderNumber,
  orderNumber,
  createdAt: '2026-11-27T09:00:00.000Z',
  status: 'paid',
  payment: 'paid',
  fulfilment: 'unfulfilled',
  customerName: 'Asha Patel',
  email: 'asha@example.com',
  postcode: 'LE1 7ZZ',
  total: 5495,
  refundedTotal: 0,
  provider: 'paypal',
  ...fields,
});

describe('the order list', () => {
  it('reads each order’s payment and fulfilment as people do', () => {
    render(
      <MemoryRouter>
        <OrderTable
          orders={[
            order(1001, { payment: 'refunded', refundedTotal: 5495 }),
            order(1002, { payment: 'partially_refunded', refundedTotal: 500, fulfilment: 'ready_for_collection' }),
            order(1003, { status: 'expired', payment: 'cancelled' }),
          ]}
          sort="newest"
          onSort={() => {}}
          pager={{ label: 'Order pages', list: { total: 3, page: 1, pageSize: 25 }, onPage: () => {} }}
        />
      </MemoryRouter>,
    );
    const row = (n: number) => within(screen.getByRole('link', { name: String(n) }).closest('tr')!);
    expect(row(1001).getByText('Refunded')).toBeTruthy();
    expect(row(1001).getByText('Unfulfilled')).toBeTruthy();
    expect(row(1002).getByText('Partially refunded')).toBeTruthy();
    expect(row(1002).getByText('Ready for collection')).toBeTruthy();
    expect(row(1003).getByText('Cancelled')).toBeTruthy();
  });

  it('names each provider as its owner spells it', () => {
    render(
      <MemoryRouter>
        <OrderTable
          orders={[order(1004, { provider: 'paypal' }), order(1005, { provider: 'opayo' })]}
          sort="newest"
          onSort={() => {}}
          pager={{ label: 'Order pages', list: { total: 2, page: 1, pageSize: 25 }, onPage: () => {} }}
        />
      </MemoryRouter>,
    );
    const row = (n: number) => within(screen.getByRole('link', { name: String(n) }).closest('tr')!);
    expect(row(1004).getByText('PayPal')).toBeTruthy();
    expect(row(1005).getByText('Opayo')).toBeTruthy();
  });
});
