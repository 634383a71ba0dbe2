import { useSyncExternalStore, type ReactNode } from 'react';
import { PageLoading } from './layout/layout.tsx';

const noChanges = () => () => undefined;

/**
 * A page that depends on what is in the shopper's browser (the basket, the session, a token in the
 * address): the server draws the shop around it with the page's loading state in its place
 * (docs/decisions/0021-server-rendering.md), and the browser, once it has hydrated that, draws the
 * page itself. The first render in the browser is the server's (useSyncExternalStore's server
 * snapshot while hydrating), so nothing mismatches.
 */
export function ShopperPage({ children }: { children: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  return inBrowser ? children : <PageLoading />;
}
