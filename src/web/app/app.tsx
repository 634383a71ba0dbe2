import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { productTypeTreeSchema } from '../../contract/catalog.ts';
import { getJson } from '../lib/api-client.ts';

const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, retry: 1 } } });

/**
 * The app shell. The storefront's screens (layout, home, search, product pages) arrive with
 * issue 3; until then the shell lists the catalogue's categories from the API.
 */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Categories />
    </QueryClientProvider>
  );
}

function Categories() {
  const types = useQuery({
    queryKey: ['product-types'],
    queryFn: ({ signal }) => getJson('/api/product-types', productTypeTreeSchema, signal),
  });
  return (
    <main>
      <h1>Raag Instruments</h1>
      <h2>Shop by category</h2>
      {types.isPending && <p>Loading categories…</p>}
      {types.isError && <p role="alert">The categories could not be loaded. Please try again.</p>}
      {types.data && (
        <ul>
          {types.data.map((type) => (
            <li key={type.id}>
              {type.name}
              {type.childTypes.length > 0 && (
                <ul>
                  {type.childTypes.map((child) => (
                    <li key={child.id}>{child.name}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
