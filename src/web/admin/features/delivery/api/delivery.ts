import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  CountryInput,
  DeliveryMethod,
  DeliveryMethodInput,
  DeliverySetup,
} from '../../../../../contract/admin/delivery.ts';
import { requestJson } from '../../../../lib/api.ts';

const deliveryKey = ['admin', 'delivery'] as const;

export function deliverySetupQueryOptions() {
  return queryOptions({
    queryKey: deliveryKey,
    queryFn: ({ signal }) => requestJson<DeliverySetup>('/api/admin/delivery', { signal }),
  });
}

/** Adds a method (no id) or saves one, its rate, bounds and whether checkout offers it. */
export async function saveDeliveryMethod(
  id: number | undefined,
  method: DeliveryMethodInput,
  queryClient: QueryClient,
): Promise<DeliveryMethod> {
  const saved = await requestJson<DeliveryMethod>(
    id ? `/api/admin/delivery-methods/${id}` : '/api/admin/delivery-methods',
    {
      method: id ? 'PUT' : 'POST',
      body: JSON.stringify(method),
    },
  );
  await queryClient.invalidateQueries({ queryKey: deliveryKey });
  return saved;
}

export async function reorderDeliveryMethods(
  countryId: number,
  methodIds: number[],
  queryClient: QueryClient,
): Promise<void> {
  await requestJson('/api/admin/delivery-methods/order', {
    method: 'POST',
    body: JSON.stringify({ countryId, methodIds }),
  });
  await queryClient.invalidateQueries({ queryKey: deliveryKey });
}

export async function addCountry(country: CountryInput, queryClient: QueryClient): Promise<void> {
  await requestJson('/api/admin/countries', { method: 'POST', body: JSON.stringify(country) });
  await queryClient.invalidateQueries({ queryKey: deliveryKey });
}

export async function removeCountry(id: number, queryClient: QueryClient): Promise<void> {
  const setup = await requestJson<DeliverySetup>(`/api/admin/countries/${id}`, { method: 'DELETE' });
  queryClient.setQueryData(deliveryKey, setup);
}
