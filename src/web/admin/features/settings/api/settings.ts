import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ShopSettings, ShopSettingsInput } from '../../../../../contract/admin/settings.ts';
import { requestJson } from '../../../../lib/api.ts';

const settingsKey = ['admin', 'settings'] as const;

export function settingsQueryOptions() {
  return queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) => requestJson<ShopSettings>('/api/admin/settings', { signal }),
  });
}

/** Saves the owner's settings; the stock page and dashboard show the threshold, so they are read again. */
export async function saveSettings(settings: ShopSettingsInput, queryClient: QueryClient): Promise<ShopSettings> {
  const saved = await requestJson<ShopSettings>('/api/admin/settings', {
    method: 'PUT',
    body: JSON.stringify(settings),
  });
  queryClient.setQueryData(settingsKey, saved);
  await queryClient.invalidateQueries({ queryKey: ['admin', 'stock'] });
  await queryClient.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
  return saved;
}
