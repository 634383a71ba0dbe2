// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomerRow } from '../../../../contract/admin/customers.ts';
import { CustomerTable } from './customer-table.tsx';

afterEach(cleanup);

const guest: CustomerRow = {
  ref: 'o100042',
  email: 'priya.shah@example.com',
  name: 'Priya Shah',
  account: null,
  orderCount: 3,
  paidOrders: 2,
  totalSpent: 4990,
  lastOrderAt: '2026-03-03T14:05:00.000Z',
};
const registered: CustomerRow = {
  ...guest,
  ref: 'a7',
  email: 'dev.patel@example.com',
  name: 'Dev Patel',
  account: { id: 7, verified: true, erased: false, createdAt: '2026-01-01T00:00:00.000Z' },
  paidOrders: 0,
  totalSpent: 0,
  lastOrderAt: null,
};

function rowOf(name: string) {
  return screen.getByRole('link', { name }).closest('tr') as HTMLElement;
}

describe('the customers list', () => {
  it('marks a guest as a guest and a registered customer as registered, each linked by reference', () => {
    render(
      <MemoryRouter>
        <CustomerTable customers={[guest, registered]} />
      </MemoryRouter>,
    );
    const guestRow = within(rowOf('Priya Shah'));
    expect(guestRow.getByText('Guest')).toBeTruthy();
    expect(guestRow.getByText('£49.90')).toBeTruthy();
    expect(guestRow.getByText('3 Mar 2026')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Priya Shah' }).getAttribute('href')).toBe('/customers/ref/o100042');

    const registeredRow = within(rowOf('Dev Patel'));
    expect(registeredRow.getByText('Registered')).toBeTruthy();
    expect(registeredRow.queryByText('Guest')).toBeNull();
    expect(registeredRow.getByText('None')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dev Patel' }).getAttribute('href')).toBe('/customers/ref/a7');
    // No e-mail address is in a link's path.
    for (const link of screen.getAllByRole('link')) expect(link.getAttribute('href')).not.toContain('@');
  });

  it('says how an account stands', () => {
    render(
      <MemoryRouter>
        <CustomerTable
          customers={[
            { ...registered, account: { ...registered.account!, verified: false } },
            { ...guest, ref: 'a8', name: 'Erased customer', account: { ...registered.account!, id: 8, erased: true } },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByText('Registered (not verified)')).toBeTruthy();
    expect(screen.getByText('Registered (erased)')).toBeTruthy();
  });
});
