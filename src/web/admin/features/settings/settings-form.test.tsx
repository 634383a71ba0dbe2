// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShopSettings } from '../../../../contract/admin/settings.ts';
import { saveSettings } from './api/settings.ts';
import { SettingsForm } from './settings-form.tsx';

vi.mock('./api/settings.ts', () => ({ saveSettings: vi.fn(async () => undefined) }));

const settings: ShopSettings = {
  name: 'Raag Instruments',
  phone: '0121 496 0742',
  email: 'hello@raag.example',
  address: 'Unit 14, West Bromwich, B70 7NJ',
  companyNumber: '09876543',
  vatNumber: 'GB123456789',
  ordersEmail: 'orders@raag.example',
  facebookUrl: 'https://www.facebook.com/raag',
  instagramUrl: 'https://www.instagram.com/raag',
  mapLatitude: 52.5186,
  mapLongitude: -1.9946,
  lowStockThreshold: 3,
};

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SettingsForm settings={settings} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.mocked(saveSettings).mockClear();
});

describe('the settings form', () => {
  it('shows every setting under its label and sends the changed VAT number with the rest', async () => {
    renderForm();
    for (const label of [
      'Shop name',
      'Phone',
      'E-mail address (and sender of the shop’s e-mails)',
      'Postal address',
      'Company number',
      'VAT registration number',
      'New-order alerts go to',
      'Facebook page',
      'Instagram page',
      'Map latitude',
      'Map longitude',
      'Low-stock threshold (units)',
    ]) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    const vat = screen.getByLabelText('VAT registration number');
    expect((vat as HTMLInputElement).value).toBe('GB123456789');
    await userEvent.clear(vat);
    await userEvent.type(vat, 'GB 111 2223 33');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(saveSettings).toHaveBeenCalledWith(
      expect.objectContaining({ vatNumber: 'GB 111 2223 33', mapLatitude: 52.5186, lowStockThreshold: 3 }),
      expect.anything(),
    );
  });

  it('refuses a bad value at its field and sends nothing', async () => {
    renderForm();
    const mail = screen.getByLabelText('New-order alerts go to');
    await userEvent.clear(mail);
    await userEvent.type(mail, 'not an address');
    const latitude = screen.getByLabelText('Map latitude');
    await userEvent.clear(latitude);
    await userEvent.type(latitude, '95');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Please enter an e-mail address')).toBeTruthy();
    expect(screen.getByText('Between -90 and 90')).toBeTruthy();
    expect(saveSettings).not.toHaveBeenCalled();
  });
});
