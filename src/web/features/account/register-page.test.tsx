// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import RegisterPage from './register-page.tsx';

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

describe('registration refused by its limit', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says when to try again, from the answer’s Retry-After', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/api/titles')
          ? answer(200, [{ id: 2, name: 'MS' }])
          : answer(
              429,
              { error: { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' } },
              { 'retry-after': '42' },
            ),
      ),
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <RegisterPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await user.selectOptions(await screen.findByLabelText('Title'), await screen.findByRole('option', { name: 'MS' }));
    await user.type(screen.getByLabelText('Email'), 'meera@example.com');
    await user.type(screen.getByLabelText('First Name'), 'Meera');
    await user.type(screen.getByLabelText('Last Name'), 'Iyer');
    await user.type(screen.getByLabelText('Password (at least 10 characters)'), 'Sarangi-Evening-2026');
    await user.type(screen.getByLabelText('Confirm Password'), 'Sarangi-Evening-2026');
    await user.click(screen.getByRole('button', { name: 'REGISTER' }));
    expect(
      await screen.findByText('Too many attempts from your connection. Please try again in 42 seconds.'),
    ).toBeTruthy();
  });
});
