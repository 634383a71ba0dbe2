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

  it('reads money in pounds, a percentage as one, yes and no, and stored codes in words', () => {
    const entry = (id: number, action: string, before: object | null, after: object) => ({
      id,
      at: '2026-11-27T10:00:00.000Z',
      staffEmail: 'owner@example.com',
      action,
      entityType: 'order',
      entityId: String(id),
      before,
      after,
    });
    render(
      <AuditTable
        caption="Staff actions"
        entries={[
          entry(
            1,
            'order.refund',
            { status: 'paid', fulfilment: 'partially_dispatched', refundedTotal: 0 },
            { refundedTotal: 1250, amount: 1250, reason: 'Scratched in the post' },
          ),
          entry(2, 'voucher.update', null, { kind: 'percent', amount: 15, minSpend: 2500, active: false }),
          entry(3, 'delivery.update', null, { rate: 495, minItemsTotal: null, maxItemsTotal: 10000 }),
          entry(4, 'return.receive', null, { reason: 'damaged_in_transit', condition: 'as_new', deduction: 300 }),
          entry(5, 'product.update', null, { sizes: [{ sizeName: 'Large', price: 12999, priceReduction: 10 }] }),
        ]}
      />,
    );
    const row = (n: number) => screen.getAllByRole('row')[n]!.textContent;
    expect(row(1)).toContain('Fulfilment: Partially dispatched');
    expect(row(1)).toContain('Refunded total: £0.00');
    expect(row(1)).toContain('Refunded total: £12.50');
    expect(row(1)).toContain('Amount: £12.50');
    expect(row(1)).toContain('Reason: Scratched in the post');
    expect(row(2)).toContain('Amount: 15%');
    expect(row(2)).toContain('Min spend: £25.00');
    expect(row(2)).toContain('Active: No');
    expect(row(3)).toContain('Rate: £4.95');
    expect(row(3)).toContain('Max items total: £100.00');
    expect(row(4)).toContain('Reason: Damaged in transit');
    expect(row(4)).toContain('Deduction: £3.00');
    expect(row(5)).toContain('Sizes: Large, £129.99, 10% off');
  });
});
