import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { isStaffMeKey, staffKeys } from '../lib/staff-session.ts';
import { isSignedOut } from '../lib/problem.ts';
import { adminRoutes } from './router.tsx';

/**
 * A session that ends while a page is open (idle expiry, signed out elsewhere) makes the next call
 * answer 401: asking who is signed in again lets the guard send the person to sign in.
 */
const queryClient: QueryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 15_000, retry: false, refetchOnWindowFocus: false } },
  queryCache: new QueryCache({ onError: (error, query) => signedOut(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => signedOut(error, []) }),
});

function signedOut(error: unknown, key: readonly unknown[]) {
  if (isSignedOut(error) && !isStaffMeKey(key)) void queryClient.invalidateQueries({ queryKey: staffKeys.me });
}

const router = createBrowserRouter(adminRoutes, { basename: '/admin' });

export function AdminApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
