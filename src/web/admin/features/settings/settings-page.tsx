import { useQuery } from '@tanstack/react-query';
import { AdminPage } from '../../lib/admin-page.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { settingsQueryOptions } from './api/settings.ts';
import { SettingsForm } from './settings-form.tsx';

/** Settings (owners only, issue 37): the shop's identity, addresses, VAT number, map and stock threshold. */
export default function SettingsPage() {
  const settings = useQuery(settingsQueryOptions());
  return (
    <AdminPage title="Settings">
      <ErrorAlert error={settings.error} />
      {settings.data && <SettingsForm settings={settings.data} />}
    </AdminPage>
  );
}
