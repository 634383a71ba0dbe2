// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryMethod } from '../../../../contract/admin/delivery.ts';
import { saveDeliveryMethod } from './api/delivery.ts';
import { MethodForm } from './method-form.tsx';

vi.mock('./api/delivery.ts', () => ({ saveDeliveryMethod: vi.fn(async () => undefined) }));

const countries = [{ id: 1, name: 'United Kingdom', isoCode: 'GB' }];
const method: DeliveryMethod = {
  id: 4,
  countryId: 1,
  name: 'Courier',
  rate: 995,
  minItemsTotal: null,
  maxItemsTotal: null,
  sortOrder: 0,
  active: true,
  kind: 'delivery',
  transitDays: 5,
  labels: null,
};

function renderForm(props: { method?: DeliveryMethod }) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MethodForm countries={countries} method={props.method} onDone={() => undefined} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.mocked(saveDeliveryMethod).mockClear();
});

describe('the delivery method form', () => {
  it('shows a method’s transit days under their label, and sends them as a whole number', async () => {
    renderForm({ method });
    const field = screen.getByLabelText('Transit days');
    expect((field as HTMLInputElement).value).toBe('5');
    await userEvent.clear(field);
    await userEvent.type(field, '7');
    await userEvent.click(screen.getByRole('button', { name: 'Save delivery method' }));
    expect(saveDeliveryMethod).toHaveBeenCalledWith(4, expect.objectContaining({ transitDays: 7 }), expect.anything());
  });

  it('starts a new method at 3 days, and refuses what is not 0 to 30 whole days at the field', async () => {
    renderForm({});
    const field = screen.getByLabelText('Transit days');
    expect((field as HTMLInputElement).value).toBe('3');
    for (const typed of ['31', '2.5', '']) {
      await userEvent.clear(field);
      if (typed) await userEvent.type(field, typed);
      await userEvent.click(screen.getByRole('button', { name: 'Save delivery method' }));
      expect(await screen.findByText('Please enter whole days from 0 to 30')).toBeTruthy();
    }
    expect(saveDeliveryMethod).not.toHaveBeenCalled();
  });
});
