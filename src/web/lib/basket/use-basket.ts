import { useSyncExternalStore } from 'react';
import { basketStore, emptyBasket, type BasketState } from './basket-store.ts';

/**
 * The shopper's basket. A page rendered on the server has none, and the browser hydrates it as it
 * was rendered (an empty basket), then draws the shopper's own at once.
 */
export function useBasket(): BasketState {
  return useSyncExternalStore(basketStore.subscribe, basketStore.getSnapshot, () => emptyBasket);
}
