// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SecureCheckoutButton } from './secure-checkout-button.tsx';

afterEach(cleanup);

describe('SECURE CHECKOUT', () => {
  it('keeps the spec’s label and says, read with it, that pressing it is an obligation to pay', async () => {
    const onClick = vi.fn();
    render(
      <MemoryRouter>
        <SecureCheckoutButton onClick={onClick} />
      </MemoryRouter>,
    );
    const button = screen.getByRole('button', {
      name: 'SECURE CHECKOUT',
      description: /places your order with an obligation to pay/,
    });
    expect(screen.getByRole('link', { name: 'returns and cancellations' }).getAttribute('href')).toBe('/returns');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });
});
