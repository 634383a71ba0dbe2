// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffMember } from '../../../../contract/admin/staff.ts';
import StaffPage from './staff-page.tsx';

const asha: StaffMember = {
  id: 2,
  email: 'asha@example.com',
  name: 'Asha Patel',
  role: 'staff',
  disabled: false,
  active: true,
  totpEnabled: false,
  createdAt: '2026-11-01T09:00:00.000Z',
} as StaffMember;

const sam: StaffMember = { ...asha, id: 3, email: 'sam@example.com', name: 'Sam Owner', role: 'owner' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Who is signed in: an owner unless told. */
function show(me: object = { id: 1, role: 'owner', permissions: [], access: {} }) {
  const changes: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      if (path.includes('csrf')) return Response.json({ token: 't' });
      if (path.endsWith('/me')) return Response.json(me);
      if (path.endsWith('/roles')) {
        return Response.json([
          { id: 1, name: 'owner', permissions: [], builtIn: true, members: 1 },
          { id: 2, name: 'staff', permissions: ['dispatch', 'refund'], builtIn: false, members: 1 },
          { id: 3, name: 'packer', permissions: ['dispatch'], builtIn: false, members: 0 },
        ]);
      }
      if (init?.method === 'PATCH') {
        changes.push(JSON.parse(String(init.body)));
        return Response.json({});
      }
      return Response.json([asha, sam]);
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <StaffPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return changes;
}

describe('the staff page', () => {
  it('asks before a role change, saying what the member will be able to do, and changes nothing on no', async () => {
    const changes = show();
    await userEvent.selectOptions(await screen.findByLabelText('Role of asha@example.com'), 'owner');
    const question = screen.getByRole('alert');
    expect(question.textContent).toContain('Make Asha Patel an owner?');
    expect(question.textContent).toContain('everything, staff accounts, roles and settings included');
    await userEvent.click(screen.getByRole('button', { name: 'Keep as it is' }));
    expect(changes).toEqual([]);
    expect((screen.getByLabelText('Role of asha@example.com') as HTMLSelectElement).value).toBe('staff');

    await userEvent.selectOptions(screen.getByLabelText('Role of asha@example.com'), 'owner');
    await userEvent.click(screen.getByRole('button', { name: 'Yes, make Asha Patel an owner' }));
    expect(changes).toEqual([{ role: 'owner' }]);
  });

  it('asks before disabling a member, saying they are signed out and cannot sign in', async () => {
    const changes = show();
    await userEvent.click(await screen.findByRole('button', { name: 'Disable asha@example.com' }));
    expect(screen.getByRole('alert').textContent).toContain(
      'Disable Asha Patel? They are signed out at once and cannot sign in until an owner enables them again.',
    );
    expect(changes).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Yes, disable Asha Patel' }));
    expect(changes).toEqual([{ disabled: true }]);
  });

  it('offers a member who is not an owner only the roles within their own permissions, and no hand on an owner', async () => {
    show({ id: 9, role: 'lead', permissions: ['staff', 'dispatch'], access: {} });
    const select = (await screen.findByLabelText('Role of asha@example.com')) as HTMLSelectElement;
    await screen.findAllByRole('option', { name: 'packer' });
    expect([...select.options].map((option) => option.value)).toEqual(['staff', 'packer']);
    expect(screen.queryByLabelText('Role of sam@example.com')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable sam@example.com' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New set-password link for sam@example.com' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Disable asha@example.com' })).toBeTruthy();
  });
});
