import { useSyncExternalStore } from 'react';
import { basketStore, type BasketState } from './basket-store.ts';

export function useBasket(): BasketState {
  return useSyncExternalStore(basketStore.subscribe, basketStore.getSnapshot, basketStore.getSnapshot);
}
