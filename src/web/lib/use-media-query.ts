import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a media query matches, following its changes. A page drawn on the server is hydrated
 * as if it did not (the server cannot know), then drawn again with the browser's answer. A browser
 * without matchMedia answers no.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
