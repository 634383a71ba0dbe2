// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditTable } from './audit-list.tsx';

afterEach(cleanup);

describe('the staff actions table', () => {
  it('reads values before and after as an owner would: each field named, an address on one line', () => {
    render(
      <AuditTable
        caption="Staff actions on this order"
        entries={[
          {
            id: 1,
            at: '2026-11-27T10:00:00.000Z',
            staffEmail: 'owner@example.com',
            action: 'order.delivery-details',
            entityType: 'order',
            entityId: '100006',
            before: { deliveryAddress: { line1: '77 Old Road', line2: '', townCity: 'Leeds', postcode: 'LS1 1AA' } },
            after: {
              deliveryAddress: { line1: '12 Cathedral Road', line2: '', townCity: 'Cardiff', postcode: 'CF11 9LJ' },
              contactNumber: '029 2000 0000',
              restock: [{ lineId: 7, quantity: 1 }],
            },
          },
        ]}
      />,
    );
    const row = screen.getAllByRole('row')[1]!;
    expect(row.textContent).toContain('Delivery address: 77 Old Road, Leeds, LS1 1AA');
    expect(row.textContent).toContain('Delivery address: 12 Cathedral Road, Cardiff, CF11 9LJ');
    expect(row.textContent).toContain('Contact number: 029 2000 0000');
    expect(row.textContent).toContain('Restock: line id 7, quantity 1');
    expect(row.textContent).not.toContain('{');
  });
});
