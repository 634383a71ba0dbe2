import {
  addressFieldLimits,
  guestFieldLimits,
  MAX_BASKET_LINES,
  MAX_ID,
  MAX_LINE_QUANTITY,
  ORDER_CODE_PATTERN,
  VOUCHER_CODE_MAX,
} from '../../../contract/basket-rules.ts';
import { errorCodes } from '../../../contract/error-codes.ts';
import type {
  AddressDraft,
  BasketRequest,
  CommitResponse,
  GuestDraft,
  PricedBasket,
} from '../../../contract/basket.ts';
import type { Product, ProductStock, StockDetail } from '../../../contract/catalog.ts';
import { ApiRequestError, requestJson } from '../api.ts';
import { fetchStockDetails } from '../catalog-api.ts';

/**
 * The basket, held on the client (docs/rules.md#basket) and saved in localStorage under the spec's
 * keys after every change and every verification. The server is the judge of prices and stock:
 * `verify()` asks it to price the basket, and the checkout commits only what it accepts.
 */

export const storageKeys = {
  basket: 'temporaryBasket',
  orderNumber: 'orderNumber',
  orderCode: 'orderCode',
  authToken: 'authToken',
} as const;

export interface BasketItem {
  productStockId: number;
  requestedQty: number;
  /** Stock and price as the shopper last saw them (from the last verification). */
  availableStock?: number;
  price?: number;
  /** The last verification refused this line at this quantity: it counts for nothing (docs/rules.md#basket). */
  refused?: boolean;
}

/** A line's quantity before and after a change the shopper did not make on this page (0: not in the basket). */
export interface BasketLineChange {
  productStockId: number;
  before: number;
  after: number;
}

/**
 * Why the basket changed behind the page the shopper is looking at, for the pages to say
 * (`BasketNotice` in web/ui/basket-notice): it was changed in another tab of this browser, or
 * emptied because the order it came back from has been paid elsewhere (issue 32).
 */
export type BasketNotice =
  { kind: 'changedElsewhere'; changes: BasketLineChange[] } | { kind: 'orderPaid'; orderNumber: number | null };

export interface BasketState {
  items: BasketItem[];
  /** Product details per stock id, looked up from the server. */
  details: Record<number, StockDetail>;
  guest?: GuestDraft;
  billingAddress?: AddressDraft;
  deliveryAddress?: AddressDraft;
  deliveryMethodRateId?: number | null;
  appliedVouchers?: Array<{ code: string }>;
  /** The unpaid order this basket came back from after a failed payment; a new commit replaces it. */
  orderCode?: string;
  /** The server's answer to the last verification, when it still matches the items. */
  priced?: PricedBasket;
  /** Said on the cart and checkout pages until the shopper changes the basket here. */
  notice?: BasketNotice;
}

/** No basket: the one the page rendered on the server shows, since the shopper's is in their browser. */
export const emptyBasket: BasketState = { items: [], details: {} };
let state: BasketState = emptyBasket;
const listeners = new Set<() => void>();

function isPositiveInt(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

/** The saved fields that are text within their limits, the rest empty: an edited basket stays harmless. */
function sanitizeTexts<K extends string>(value: Record<string, unknown>, limits: Record<K, number>): Record<K, string> {
  return Object.fromEntries(
    Object.entries<number>(limits).map(([name, max]) => [name, text(value[name], max) ?? '']),
  ) as Record<K, string>;
}

function sanitizeAddress(value: unknown): AddressDraft | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const a = value as Record<string, unknown>;
  return {
    ...sanitizeTexts(a, addressFieldLimits),
    countryId: isPositiveInt(a.countryId, MAX_ID) ? a.countryId : null,
  };
}

function sanitizeGuest(value: unknown): GuestDraft | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const g = value as Record<string, unknown>;
  return { ...sanitizeTexts(g, guestFieldLimits), titleId: isPositiveInt(g.titleId, MAX_ID) ? g.titleId : null };
}

/** A saved basket that is not what we wrote (edited, corrupt, an old format) is discarded. */
export function parseSavedBasket(saved: string | null): Omit<BasketState, 'details'> {
  if (!saved) return { items: [] };
  try {
    const parsed = JSON.parse(saved) as Record<string, unknown>;
    const items = parsed.items;
    if (!Array.isArray(items)) return { items: [] };
    const valid: BasketItem[] = [];
    for (const item of items.slice(0, MAX_BASKET_LINES)) {
      const { productStockId, requestedQty } = (item ?? {}) as Record<string, unknown>;
      if (!isPositiveInt(productStockId, MAX_ID) || !isPositiveInt(requestedQty, MAX_LINE_QUANTITY)) {
        return { items: [] };
      }
      if (!valid.some((v) => v.productStockId === productStockId)) valid.push({ productStockId, requestedQty });
    }
    const voucher = Array.isArray(parsed.appliedVouchers)
      ? text((parsed.appliedVouchers[0] as { code?: unknown })?.code, VOUCHER_CODE_MAX)
      : undefined;
    const result: Omit<BasketState, 'details'> = { items: valid };
    const guest = sanitizeGuest(parsed.guest);
    const billing = sanitizeAddress(parsed.billingAddress);
    const delivery = sanitizeAddress(parsed.deliveryAddress);
    if (guest) result.guest = guest;
    if (billing) result.billingAddress = billing;
    if (delivery) result.deliveryAddress = delivery;
    if (isPositiveInt(parsed.deliveryMethodRateId, MAX_ID)) result.deliveryMethodRateId = parsed.deliveryMethodRateId;
    if (voucher) result.appliedVouchers = [{ code: voucher }];
    const orderCode = text(parsed.orderCode, 64);
    if (orderCode && ORDER_CODE_PATTERN.test(orderCode)) result.orderCode = orderCode;
    // An emptied basket says why in every tab, and after a reload, until the shopper fills it again.
    const paid = parsed.paidOrder as { orderNumber?: unknown } | undefined;
    if (paid && typeof paid === 'object') {
      result.notice = {
        kind: 'orderPaid',
        orderNumber: isPositiveInt(paid.orderNumber, MAX_ID) ? paid.orderNumber : null,
      };
    }
    return result;
  } catch {
    return { items: [] };
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

/** The basket as it is saved: the shopper's choices, and why an emptied basket was emptied. */
function saved(basket: Omit<BasketState, 'details'>): string {
  const { items, guest, billingAddress, deliveryAddress, deliveryMethodRateId, appliedVouchers, orderCode } = basket;
  return JSON.stringify({
    items: items.map(({ productStockId, requestedQty }) => ({ productStockId, requestedQty })),
    guest,
    billingAddress,
    deliveryAddress,
    deliveryMethodRateId,
    appliedVouchers,
    orderCode,
    paidOrder: basket.notice?.kind === 'orderPaid' ? { orderNumber: basket.notice.orderNumber } : undefined,
  });
}

function save(): void {
  try {
    localStorage.setItem(storageKeys.basket, saved(state));
  } catch {
    // Private browsing or a full quota: the basket still works for this visit.
  }
}

/**
 * The lines whose quantity differs from `before` to `after`, counted from what the shopper last saw
 * on this page: a change already noticed keeps its first quantity, and one undone is no change.
 */
function lineChanges(before: BasketState, after: BasketItem[]): BasketLineChange[] {
  const seen = new Map(before.items.map((item) => [item.productStockId, item.requestedQty]));
  if (before.notice?.kind === 'changedElsewhere') {
    for (const change of before.notice.changes) seen.set(change.productStockId, change.before);
  }
  const now = new Map(after.map((item) => [item.productStockId, item.requestedQty]));
  return [...new Set([...seen.keys(), ...now.keys()])].flatMap((productStockId) => {
    const change = { productStockId, before: seen.get(productStockId) ?? 0, after: now.get(productStockId) ?? 0 };
    return change.before === change.after ? [] : [change];
  });
}

function setState(next: BasketState, persist = true): void {
  state = next;
  if (persist) save();
  emit();
}

/** What the server is asked to price: the shopper's choices, never prices to charge. */
export function basketRequest(basket: BasketState, extra: Partial<BasketRequest> = {}): BasketRequest {
  return {
    items: basket.items.map((item) => ({
      productStockId: item.productStockId,
      requestedQty: item.requestedQty,
      availableStock: item.availableStock ?? null,
      price: item.price ?? null,
    })),
    guest: basket.guest ?? null,
    billingAddress: basket.billingAddress ?? null,
    deliveryAddress: basket.deliveryAddress ?? null,
    deliveryMethodRateId: basket.deliveryMethodRateId ?? null,
    appliedVouchers: basket.appliedVouchers ?? [],
    totalPriceIncludingDelivery: basket.priced?.totalPriceIncludingDelivery ?? null,
    orderCode: basket.orderCode ?? null,
    ...extra,
  };
}

/** Takes the server's priced basket as the truth: lines, what it saw of stock and price, voucher, delivery. */
function adopt(priced: PricedBasket): void {
  const lines = new Map(priced.items.map((line) => [line.productStockId, line]));
  const items = state.items.flatMap((item) => {
    const line = lines.get(item.productStockId);
    return line ? [{ ...item, availableStock: line.availableStock, price: line.price, refused: line.hasError }] : [];
  });
  const details = { ...state.details };
  for (const line of priced.items) {
    details[line.productStockId] = {
      id: line.productStockId,
      productStockId: line.productStockId,
      productId: line.productId,
      productSizeName: line.sizeName,
      productTitle: line.title,
      stock: line.availableStock,
      price: line.price,
      priceReduction: line.priceReduction,
      priceWithoutDiscount: line.priceWithoutDiscount,
      urlKey: line.urlKey,
      imageUrl: line.imageUrl,
    };
  }
  setState({
    ...state,
    items,
    details,
    appliedVouchers: priced.appliedVouchers,
    deliveryMethodRateId: priced.deliveryMethodRateId,
    priced,
  });
}

/**
 * The order this basket came back from has been paid elsewhere (its recovery link, on another
 * device): the basket is emptied rather than bought a second time, and says why (issue 32).
 */
function dropForPaidOrder(orderNumber: number | null): void {
  setState({ ...emptyBasket, notice: { kind: 'orderPaid', orderNumber } });
}

/**
 * The basket saved by another tab of this browser: this page follows it, says what changed, and
 * has the server price it again, so its totals and buttons are the new basket's (issue 32). A
 * save that changes nothing (the other tab verifying the same basket) is not a change.
 */
function follow(savedText: string | null): void {
  const next = parseSavedBasket(savedText);
  const now = parseSavedBasket(saved(state));
  if (saved(next) === saved(now)) return;
  // Only Your Details typed in the other tab (basketStore.keepDetails): nothing to price or to say.
  const withoutDetails = (basket: typeof next) => saved({ ...basket, guest: undefined, billingAddress: undefined });
  if (withoutDetails(next) === withoutDetails(now)) {
    setState({ ...state, guest: next.guest, billingAddress: next.billingAddress }, false);
    return;
  }
  const known = new Map(state.items.map((item) => [item.productStockId, item]));
  // What this page last saw of a line's stock and price, to tell the server (basketRequest); a line
  // refused at another quantity may be taken at this one.
  const items = next.items.map((item) => {
    const was = known.get(item.productStockId);
    return { ...was, ...item, refused: was?.requestedQty === item.requestedQty ? was.refused : undefined };
  });
  const notice = next.notice ?? { kind: 'changedElsewhere', changes: lineChanges(state, items) };
  // Not saved again: it came from storage, and the other tab holds the same.
  setState({ ...next, items, details: state.details, notice }, false);
  if (items.length > 0) {
    void basketStore.verify().catch(() => basketStore.refreshDetails().catch(() => undefined));
  }
}

/** The restore of an unpaid order under way, so that two callers share it. */
let restoring: Promise<boolean> | undefined;

/** How many verifications have been asked, so that only the latest one's answer is adopted. */
let verificationsAsked = 0;

export const basketStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  getSnapshot(): BasketState {
    return state;
  },

  /** Adds a line, or replaces the quantity of the line already there (docs/rules.md#basket). */
  add(productStockId: number, quantity: number, detail?: StockDetail): void {
    const requestedQty = Math.min(Math.max(1, Math.floor(quantity)), MAX_LINE_QUANTITY);
    const exists = state.items.some((item) => item.productStockId === productStockId);
    if (!exists && state.items.length >= MAX_BASKET_LINES) return;
    const items = exists
      ? state.items.map((item) =>
          item.productStockId === productStockId ? { ...item, requestedQty, refused: undefined } : item,
        )
      : [...state.items, { productStockId, requestedQty }];
    const details = detail ? { ...state.details, [productStockId]: detail } : state.details;
    setState({ ...state, items, details, priced: undefined, notice: undefined });
    // docs/rules.md#basket: a failed look-up is not the shopper's problem; the next one may succeed.
    if (!detail) void basketStore.refreshDetails().catch(() => undefined);
  },

  /** Sets several lines' quantities at once (the cart's UPDATE BASKET); below 1 removes a line. */
  setQuantities(quantities: Map<number, number>): void {
    const items = state.items.flatMap((item) => {
      const qty = quantities.get(item.productStockId);
      if (qty === undefined) return [item];
      return qty < 1 ? [] : [{ ...item, requestedQty: Math.min(qty, MAX_LINE_QUANTITY), refused: undefined }];
    });
    setState({ ...state, items, priced: undefined, notice: undefined });
  },

  /** Removes a line and drops its cached details. */
  remove(productStockId: number): void {
    const details = { ...state.details };
    delete details[productStockId];
    setState({
      ...state,
      items: state.items.filter((item) => item.productStockId !== productStockId),
      details,
      priced: undefined,
      notice: undefined,
    });
  },

  update(changes: Pick<BasketState, 'guest' | 'billingAddress' | 'deliveryAddress' | 'deliveryMethodRateId'>): void {
    setState({ ...state, ...changes, notice: undefined });
  },

  /**
   * Your Details as the shopper types them, kept so that a reload keeps them, as the later steps'
   * choices are (issue 32). Drafts: a text over its length is kept empty, as a saved basket's is,
   * so the basket stays one the server will price. A draft is not a change to the basket: any
   * notice stays said.
   */
  keepDetails(details: Pick<BasketState, 'guest' | 'billingAddress'>): void {
    setState({
      ...state,
      guest: sanitizeGuest(details.guest),
      billingAddress: sanitizeAddress(details.billingAddress),
    });
  },

  /** Clears everything (after an order is handed to payment). */
  wipe(): void {
    setState(emptyBasket);
  },

  /** POST /api/verify-basket; the answer replaces the local basket and is saved (docs/rules.md#basket). */
  async verify(extra: Partial<BasketRequest> = {}): Promise<PricedBasket> {
    const asked = ++verificationsAsked;
    const priced = await requestJson<PricedBasket>('/api/verify-basket', {
      method: 'POST',
      body: JSON.stringify(basketRequest(state, extra)),
    });
    // Answers can arrive out of order: one to a question asked before the shopper's latest change
    // (a delivery option just chosen) must not undo it; the newer question's answer will follow.
    if (asked !== verificationsAsked) return priced;
    // (An instance of the shop from before the field answers without it: nothing was paid that it knows of.)
    if (typeof priced.paidOrderNumber === 'number') dropForPaidOrder(priced.paidOrderNumber);
    else adopt(priced);
    return priced;
  },

  /**
   * POST /api/basket. Accepted: the order number and code are kept for the payment's return and
   * the saved basket is deleted. Refused: the corrected basket replaces the local one.
   */
  async commit(): Promise<CommitResponse> {
    let response: CommitResponse;
    try {
      response = await requestJson<CommitResponse>('/api/basket', {
        method: 'POST',
        body: JSON.stringify(basketRequest(state)),
      });
    } catch (error) {
      // The order it came back from has been held as long as it may: the next try is a new order.
      if (error instanceof ApiRequestError && error.code === errorCodes.orderHeldTooLong) {
        setState({ ...state, orderCode: undefined });
      }
      // The order it came back from has been paid elsewhere: the server names it to a verification,
      // which empties the basket; emptied whatever that answers, since the server refused it.
      if (error instanceof ApiRequestError && error.code === errorCodes.orderAlreadyPaid) {
        await basketStore.verify().catch(() => undefined);
        if (state.notice?.kind !== 'orderPaid') dropForPaidOrder(null);
      }
      throw error;
    }
    if (response.ok) {
      localStorage.setItem(storageKeys.orderNumber, String(response.orderNumber));
      localStorage.setItem(storageKeys.orderCode, response.orderCode);
      basketStore.wipe();
    } else {
      adopt(response.basket);
    }
    return response;
  },

  /**
   * After a failed or cancelled payment: the order's lines and details come back as the basket,
   * so the shopper can try again (BACK TO CART, docs/rules.md#checkout). False when the order can no
   * longer be recovered (paid, or its reservation ran out).
   */
  async restoreFromOrder(orderCode: string): Promise<boolean> {
    let order: PricedBasket;
    try {
      order = await requestJson<PricedBasket>(`/api/recover-basket/${encodeURIComponent(orderCode)}`);
    } catch {
      return false;
    }
    setState({
      items: order.items.map((line) => ({ productStockId: line.productStockId, requestedQty: line.requestedQty ?? 1 })),
      details: {},
      guest: order.guest ?? undefined,
      billingAddress: order.billingAddress ?? undefined,
      deliveryAddress: order.deliveryAddress ?? undefined,
      deliveryMethodRateId: order.deliveryMethodRateId,
      appliedVouchers: order.appliedVouchers,
      orderCode,
    });
    await basketStore.verify().catch(() => undefined);
    return true;
  },

  /**
   * On return from a cancelled or failed payment: the unpaid order kept under
   * `orderCode` comes back as the basket, once, unless the shopper has a basket again already. The
   * basket keeps the order's code, so its next commit replaces the order and reuses its stock.
   */
  restoreUnpaidOrder(): Promise<boolean> {
    const orderCode = localStorage.getItem(storageKeys.orderCode);
    if (!orderCode) return Promise.resolve(false);
    if (state.items.length > 0) return Promise.resolve(state.orderCode === orderCode);
    restoring ??= basketStore.restoreFromOrder(orderCode).finally(() => {
      restoring = undefined;
    });
    return restoring;
  },

  /** Looks up every line's product details; lines whose product is gone are dropped. */
  async refreshDetails(): Promise<void> {
    const ids = state.items.map((item) => item.productStockId);
    if (ids.length === 0) return;
    const found = await fetchStockDetails(ids);
    const details: Record<number, StockDetail> = {};
    for (const detail of found) details[detail.id] = detail;
    setState({ ...state, items: state.items.filter((item) => details[item.productStockId]), details });
  },

  /**
   * Restores the saved basket at start and verifies it again (docs/rules.md#basket), so that what
   * the header counts leaves out the lines the server refuses; and follows changes made in other tabs.
   */
  start(): void {
    state = { ...parseSavedBasket(localStorage.getItem(storageKeys.basket)), details: {} };
    emit();
    if (state.items.length > 0)
      void basketStore.verify().catch(() => basketStore.refreshDetails().catch(() => undefined));
    window.addEventListener('storage', (event) => {
      // A null key: another tab cleared this site's storage.
      if (event.key !== storageKeys.basket && event.key !== null) return;
      follow(localStorage.getItem(storageKeys.basket));
    });
  },
};

/** A basket line's details from a product the page already has, so adding needs no request. */
export function stockDetailOf(product: Product, stock: ProductStock): StockDetail {
  return { ...stock, urlKey: product.urlKey, imageUrl: product.defaultImageUrl };
}

/**
 * Item count (the sum of quantities) and the items total in pence: the header's pill and the cart's
 * SUMMARY both show this, so they agree. The server's figures when it has priced these lines (they
 * leave out the lines it refused: docs/rules.md#basket); until then, the lines it has not refused,
 * at the looked-up prices.
 */
export function basketSummary(basket: BasketState): { count: number; total: number } {
  if (basket.priced) return { count: basket.priced.itemCount, total: basket.priced.itemsTotal };
  let count = 0;
  let total = 0;
  for (const item of basket.items) {
    if (item.refused) continue;
    count += item.requestedQty;
    total += (basket.details[item.productStockId]?.price ?? 0) * item.requestedQty;
  }
  return { count, total };
}

/** docs/rules.md#basket: delivery counts as chosen only with both a rate id and a price. */
export function hasDeliveryChoice(basket: BasketState): boolean {
  return Boolean(basket.priced && basket.priced.deliveryMethodRateId !== null && basket.priced.deliveryPrice !== null);
}

/** docs/rules.md#basket: an address is complete with line 1, town or city, post code and country. */
export function isCompleteAddress(address: AddressDraft | undefined | null): boolean {
  return Boolean(address?.line1?.trim() && address.townCity?.trim() && address.postcode?.trim() && address.countryId);
}
