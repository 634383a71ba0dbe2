import { basketErrorCodes, MAX_DELIVERY_RATE, voucherOutcomes } from '../../contract/basket-rules.ts';
import type { AddressDraft, BasketLine, BasketQuery, DeliveryMethodRate, PricedBasket } from '../../contract/basket.ts';
import { percentOf, vatContainedIn } from '../../contract/money.ts';
import type { DeliveryKind } from '../../contract/order-status.ts';

/**
 * Prices a basket from facts read from the database (docs/rules.md#prices-and-money). Pure, so every rule
 * is tested directly: line errors, delivery, vouchers, totals and VAT. Nothing a client sends
 * about prices or totals is used here.
 */

export interface StockFact {
  id: number;
  productId: number;
  title: string;
  sizeName: string;
  urlKey: string;
  imageUrl: string;
  price: number;
  priceWithoutDiscount: number;
  priceReduction: number;
  stock: number;
  /** False once its product is archived: the line is refused (docs/back-office.md#catalogue). */
  available: boolean;
  /** Made to order: the review line says it cannot be returned for a change of mind. */
  madeToOrder?: boolean;
}

export interface DeliveryMethodFact {
  id: number;
  name: string;
  rate: number;
  kind: DeliveryKind;
  minItemsTotal: number | null;
  maxItemsTotal: number | null;
}

export interface VoucherFact {
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
  minSpend: number;
  validFrom: string;
  validTo: string;
  usageLimit: number | null;
  timesUsed: number;
}

export interface PricingFacts {
  stocks: Map<number, StockFact>;
  /** Every active method for the delivery country; pricing picks those that apply. */
  deliveryMethods: DeliveryMethodFact[];
  /** The vouchers named by the request (attempt and applied), by upper-case code. */
  vouchers: Map<string, VoucherFact>;
  countryNames: Map<number, string>;
  /** The titles a shopper may choose: a commit refuses any other. */
  titleIds: Set<number>;
  /** The order the basket was restored from, when it has been paid since: the answer says so. */
  paidOrderNumber?: number;
  now: Date;
}

/** Lines of one stock entry are one line: their quantities add up against the same stock. */
export function mergeLines(items: BasketQuery['items']): BasketQuery['items'] {
  const merged = new Map<number, BasketQuery['items'][number]>();
  for (const item of items) {
    const seen = merged.get(item.productStockId);
    if (!seen) merged.set(item.productStockId, { ...item });
    else if (seen.requestedQty !== null && item.requestedQty !== null) seen.requestedQty += item.requestedQty;
    else seen.requestedQty = null;
  }
  return [...merged.values()];
}

function priceLine(item: BasketQuery['items'][number], stock: StockFact): BasketLine {
  const qty = item.requestedQty;
  let errorCode: number | null = null;
  if (!stock.available) errorCode = basketErrorCodes.itemUnavailable;
  else if (qty === null || !Number.isInteger(qty) || qty < 1) errorCode = basketErrorCodes.invalidQuantity;
  else if (stock.stock === 0) errorCode = basketErrorCodes.itemOutOfStock;
  else if (qty > stock.stock) {
    // The shopper was told a different stock last time: the stock changed under them.
    const sawOther =
      item.availableStock !== null && item.availableStock !== undefined && item.availableStock !== stock.stock;
    errorCode = sawOther ? basketErrorCodes.itemStockChange : basketErrorCodes.notEnoughStock;
  }
  const valid = errorCode === null;
  return {
    productStockId: stock.id,
    productId: stock.productId,
    requestedQty: qty,
    availableStock: stock.available ? stock.stock : 0,
    hasError: !valid,
    errorCode,
    title: stock.title,
    sizeName: stock.sizeName,
    urlKey: stock.urlKey,
    imageUrl: stock.imageUrl,
    price: stock.price,
    priceWithoutDiscount: stock.priceWithoutDiscount,
    priceReduction: stock.priceReduction,
    lineTotal: valid ? stock.price * (qty as number) : 0,
    ...(stock.madeToOrder ? { madeToOrder: true } : {}),
  };
}

/**
 * The methods offered for an items total. A rate over MAX_DELIVERY_RATE is never offered: staff
 * cannot save one, but one saved before the cap (2^53 - 1 pence once priced a £90-trillion order)
 * would otherwise make totals that are not exact integers.
 */
export function applicableMethods(methods: DeliveryMethodFact[], itemsTotal: number): DeliveryMethodRate[] {
  return methods
    .filter(
      (m) =>
        m.rate <= MAX_DELIVERY_RATE &&
        (m.minItemsTotal === null || itemsTotal >= m.minItemsTotal) &&
        (m.maxItemsTotal === null || itemsTotal < m.maxItemsTotal),
    )
    .map((m) => ({ id: m.id, name: m.name, rate: m.rate, kind: m.kind }));
}

/** docs/rules.md#vouchers: 1 applied, 2 invalid, 3 out of date, 4 minimum spend not met. */
export function voucherOutcome(voucher: VoucherFact | undefined, itemsTotal: number, now: Date): number {
  if (!voucher) return voucherOutcomes.invalid;
  const at = now.toISOString();
  if (at < voucher.validFrom || at > voucher.validTo) return voucherOutcomes.expired;
  if (voucher.usageLimit !== null && voucher.timesUsed >= voucher.usageLimit) return voucherOutcomes.invalid;
  if (itemsTotal < voucher.minSpend) return voucherOutcomes.minimumSpend;
  return voucherOutcomes.applied;
}

export function voucherDiscount(voucher: VoucherFact, itemsTotal: number): number {
  const discount = voucher.kind === 'percent' ? percentOf(itemsTotal, voucher.amount) : voucher.amount;
  return Math.min(discount, itemsTotal);
}

function withCountryName(address: AddressDraft | null | undefined, names: Map<number, string>): AddressDraft | null {
  if (!address) return null;
  const countryName = address.countryId ? (names.get(address.countryId) ?? '') : '';
  return { ...address, countryName };
}

export function priceBasket(request: BasketQuery, facts: PricingFacts): PricedBasket {
  // A line whose product is gone is dropped (itemNotFound: removed silently, docs/rules.md#basket).
  const items = mergeLines(request.items).flatMap((item) => {
    const stock = facts.stocks.get(item.productStockId);
    return stock ? [priceLine(item, stock)] : [];
  });
  const valid = items.filter((line) => !line.hasError);
  const itemsTotal = valid.reduce((sum, line) => sum + line.lineTotal, 0);
  const itemCount = valid.reduce((sum, line) => sum + (line.requestedQty ?? 0), 0);

  const deliveryMethodRates = applicableMethods(facts.deliveryMethods, itemsTotal);
  const chosen = deliveryMethodRates.find((m) => m.id === request.deliveryMethodRateId);

  // One voucher per basket: a new attempt replaces the applied one only when it applies.
  const attempt = request.voucherCodeAttempt?.trim().toUpperCase() || undefined;
  const applied = request.appliedVouchers?.[0]?.code.trim().toUpperCase() || undefined;
  let lastVoucherOutcome: number | null = null;
  let voucherCode: string | undefined;
  if (attempt) {
    lastVoucherOutcome = voucherOutcome(facts.vouchers.get(attempt), itemsTotal, facts.now);
    if (lastVoucherOutcome === voucherOutcomes.applied) voucherCode = attempt;
  }
  if (!voucherCode && applied) {
    const outcome = voucherOutcome(facts.vouchers.get(applied), itemsTotal, facts.now);
    if (outcome === voucherOutcomes.applied) voucherCode = applied;
    // An applied voucher that no longer applies (spend fell, it expired) says why it went.
    else if (lastVoucherOutcome === null) lastVoucherOutcome = outcome;
  }
  const voucher = voucherCode ? facts.vouchers.get(voucherCode) : undefined;
  const discountAmount = voucher ? voucherDiscount(voucher, itemsTotal) : 0;

  const deliveryPrice = chosen ? chosen.rate : null;
  const totalPriceExcludingDelivery = itemsTotal - discountAmount;
  const totalPriceIncludingDelivery = totalPriceExcludingDelivery + (deliveryPrice ?? 0);
  return {
    items,
    guest: request.guest ?? null,
    billingAddress: withCountryName(request.billingAddress, facts.countryNames),
    deliveryAddress: withCountryName(request.deliveryAddress, facts.countryNames),
    deliveryMethodRates,
    deliveryMethodRateId: chosen ? chosen.id : null,
    deliveryPrice,
    deliveryMethodName: chosen ? chosen.name : null,
    appliedVouchers: voucherCode ? [{ code: voucherCode }] : [],
    lastVoucherOutcome,
    itemCount,
    itemsTotal,
    discountAmount,
    totalVat: vatContainedIn(totalPriceIncludingDelivery),
    totalPriceExcludingDelivery,
    totalPriceIncludingDelivery,
    orderNumber: null,
    orderCode: null,
    paidOrderNumber: facts.paidOrderNumber ?? null,
  };
}

/** The country whose delivery methods apply: the delivery address's, else billing's, else the UK. */
export function deliveryCountryId(request: BasketQuery): number {
  return request.deliveryAddress?.countryId ?? request.billingAddress?.countryId ?? 1;
}
