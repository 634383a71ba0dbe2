import type { PricedBasket } from '../../src/contract/basket.ts';

/** A priced basket as the server answers it: empty and without choices, unless overridden. */
export function pricedBasket(overrides: Partial<PricedBasket> = {}): PricedBasket {
  return {
    items: [],
    guest: null,
    billingAddress: null,
    deliveryAddress: null,
    deliveryMethodRates: [],
    deliveryMethodRateId: null,
    deliveryPrice: null,
    deliveryMethodName: null,
    appliedVouchers: [],
    lastVoucherOutcome: null,
    itemCount: 0,
    itemsTotal: 0,
    discountAmount: 0,
    totalVat: 0,
    totalPriceExcludingDelivery: 0,
    totalPriceIncludingDelivery: 0,
    orderNumber: null,
    orderCode: null,
    paidOrderNumber: null,
    ...overrides,
  };
}
