// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderDocumentsList } from './order-documents.tsx';

afterEach(cleanup);

const invoice = { number: 'INV-000001', issuedAt: '2026-03-03T14:05:00.000Z', url: '/api/admin/orders/100001/invoice' };

describe('the documents on the order page', () => {
  it('says plainly that an unpaid order has no invoice yet', () => {
    render(<OrderDocumentsList orderNumber={100001} documents={{ invoice: null, creditNotes: [] }} />);
    expect(screen.getByText('No invoice yet: it is issued when the order is paid.')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('links the invoice’s PDF, opened in a new tab, with its number and date', () => {
    render(<OrderDocumentsList orderNumber={100001} documents={{ invoice, creditNotes: [] }} />);
    const link = screen.getByRole('link', { name: 'Invoice INV-000001 (PDF)' });
    expect(link.getAttribute('href')).toBe('/api/admin/orders/100001/invoice');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('listitem').textContent).toContain('3 Mar 2026');
  });

  it('links the paid order’s packing slip', () => {
    render(<OrderDocumentsList orderNumber={100001} documents={{ invoice, creditNotes: [] }} />);
    const link = screen.getByRole('link', { name: 'Packing slip (PDF)' });
    expect(link.getAttribute('href')).toBe('/api/admin/orders/100001/packing-slip');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('lists each credit note with its amount refunded and a link to its PDF', () => {
    render(
      <OrderDocumentsList
        orderNumber={100001}
        documents={{
          invoice,
          creditNotes: [
            {
              number: 'CN-000003',
              issuedAt: '2026-03-10T09:00:00.000Z',
              amount: 550,
              url: '/api/admin/credit-notes/3',
            },
            {
              number: 'CN-000004',
              issuedAt: '2026-03-11T09:00:00.000Z',
              amount: 12345,
              url: '/api/admin/credit-notes/4',
            },
          ],
        }}
      />,
    );
    expect(screen.getByRole('link', { name: 'Credit note CN-000003 (PDF)' }).getAttribute('href')).toBe(
      '/api/admin/credit-notes/3',
    );
    const items = screen.getAllByRole('listitem').map((item) => item.textContent ?? '');
    expect(items).toHaveLength(3);
    expect(items[1]).toContain('£5.50 refunded');
    expect(items[1]).toContain('10 Mar 2026');
    expect(items[2]).toContain('£123.45 refunded');
  });
});
