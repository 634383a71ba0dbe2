import type { Product, ProductStock, StockDetail } from '../../../contract/catalog.ts';
import { fetchStockDetails } from '../catalog-api.ts';

/**
 * The basket, held on the client (spec section 4.1) and saved in localStorage under the spec's
 * keys. The server remains the judge of prices and stock: line details are looked up from it,
 * and the checkout verifies the whole basket again.
 */

export const storageKeys = {
  basket: 'temporaryBasket',
  orderNumber: 'orderNumber',
  orderCode: 'orderCode',
  authToken: 'authToken',
} as const;

export const MAX_BASKET_LINES = 100;
export const MAX_LINE_QUANTITY = 9999;

export interface BasketItem {
  productStockId: number;
  requestedQty: number;
}

export interface BasketState {
  items: BasketItem[];
  /** Product details per stock id, looked up from the server. */
  details: Record<number, StockDetail>;
}

const empty: BasketState = { items: [], details: {} };
let state: BasketState = empty;
const listeners = new Set<() => void>();

function isPositiveInt(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

/** A saved basket that is not what we wrote (edited, corrupt, an old format) is discarded. */
export function parseSavedBasket(text: string | null): BasketItem[] {
  if (!text) return [];
  try {
    const saved: unknown = JSON.parse(text);
    const items = (saved as { items?: unknown }).items;
    if (!Array.isArray(items)) return [];
    const valid: BasketItem[] = [];
    for (const item of items.slice(0, MAX_BASKET_LINES)) {
      const { productStockId, requestedQty } = (item ?? {}) as Record<string, unknown>;
      if (!isPositiveInt(productStockId, 2_147_483_647) || !isPositiveInt(requestedQty, MAX_LINE_QUANTITY)) return [];
      if (!valid.some((v) => v.productStockId === productStockId)) valid.push({ productStockId, requestedQty });
    }
    return valid;
  } catch {
    return [];
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

function save(): void {
  try {
    localStorage.setItem(storageKeys.basket, JSON.stringify({ items: state.items }));
  } catch {
    // Private browsing or a full quota: the basket still works for this visit.
  }
}

function setState(next: BasketState, persist = true): void {
  state = next;
  if (persist) save();
  emit();
}

export const basketStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  getSnapshot(): BasketState {
    return state;
  },

  /** Adds a line, or replaces the quantity of the line already there (spec section 4.1). */
  add(productStockId: number, quantity: number, detail?: StockDetail): void {
    const requestedQty = Math.min(Math.max(1, Math.floor(quantity)), MAX_LINE_QUANTITY);
    const exists = state.items.some((item) => item.productStockId === productStockId);
    if (!exists && state.items.length >= MAX_BASKET_LINES) return;
    const items = exists
      ? state.items.map((item) => (item.productStockId === productStockId ? { ...item, requestedQty } : item))
      : [...state.items, { productStockId, requestedQty }];
    const details = detail ? { ...state.details, [productStockId]: detail } : state.details;
    setState({ items, details });
    // Spec section 8: a failed look-up is not the shopper's problem; the next one may succeed.
    if (!detail) void basketStore.refreshDetails().catch(() => undefined);
  },

  /** Removes a line and drops its cached details. */
  remove(productStockId: number): void {
    const details = { ...state.details };
    delete details[productStockId];
    setState({ items: state.items.filter((item) => item.productStockId !== productStockId), details });
  },

  /** Clears everything (after an order is handed to payment). */
  wipe(): void {
    setState(empty);
  },

  /** Looks up every line's product details; lines whose product is gone are dropped. */
  async refreshDetails(): Promise<void> {
    const ids = state.items.map((item) => item.productStockId);
    if (ids.length === 0) return;
    const found = await fetchStockDetails(ids);
    const details: Record<number, StockDetail> = {};
    for (const detail of found) details[detail.id] = detail;
    setState({ items: state.items.filter((item) => details[item.productStockId]), details });
  },

  /** Restores the saved basket at start and follows changes made in other tabs. */
  start(): void {
    state = { items: parseSavedBasket(localStorage.getItem(storageKeys.basket)), details: {} };
    emit();
    void basketStore.refreshDetails().catch(() => undefined);
    window.addEventListener('storage', (event) => {
      if (event.key !== storageKeys.basket) return;
      state = { items: parseSavedBasket(event.newValue), details: state.details };
      emit();
      void basketStore.refreshDetails().catch(() => undefined);
    });
  },
};

/** A basket line's details from a product the page already has, so adding needs no request. */
export function stockDetailOf(product: Product, stock: ProductStock): StockDetail {
  return { ...stock, urlKey: product.urlKey, imageUrl: product.defaultImageUrl };
}

/** Item count (the sum of quantities) and the items total in pence, from the looked-up prices. */
export function basketSummary(basket: BasketState): { count: number; total: number } {
  let count = 0;
  let total = 0;
  for (const item of basket.items) {
    count += item.requestedQty;
    total += (basket.details[item.productStockId]?.price ?? 0) * item.requestedQty;
  }
  return { count, total };
}
