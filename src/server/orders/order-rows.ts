import type { Insertable } from 'kysely';
import type { BasketCommit, BasketLine, PricedBasket } from '../../contract/basket.ts';
import { vatContainedIn } from '../../contract/money.ts';
import type { OrderLineTable, OrderTable } from '../db/schema.ts';
import type { OrderLineRow, OrderRow } from './orders.repository.ts';

/**
 * Between the orders' rows and the shop's objects, one mapper per row type and direction, so a
 * column is named in one place: a committed basket becomes an order row and its line rows, and an
 * order row with its lines becomes the basket a shopper recovers (BACK TO CART).
 */

/** Who places an order, as the unpaid-order caps count them (docs/rules.md#limits-on-one-client). */
export interface Buyer {
  customerId: number | undefined;
  /** The address as given, in lower case: where the order's mail goes. */
  email: string;
  emailKey: string;
  clientAddress: string | undefined;
}

/** What a commit has gathered by the time it writes the order. */
export interface NewOrder {
  request: BasketCommit;
  priced: PricedBasket;
  buyer: Buyer;
  /** Its hold on the stock, and the order it replaces (BACK TO CART), if any. */
  reservation: { heldSince: string; reservedUntil: string; replacesOrderId: number | null };
  at: string;
}

/** A new order's row: the shopper's details from the request, every amount from the fresh pricing. */
export function newOrderRow(order: NewOrder & { orderCode: string }): Omit<Insertable<OrderTable>, 'order_number'> {
  const { request, priced, buyer, reservation, at } = order;
  const { guest, billingAddress: bill, deliveryAddress: ship } = request;
  return {
    order_code: order.orderCode,
    status: 'pending_payment',
    customer_id: buyer.customerId ?? null,
    title_id: guest.titleId,
    firstname: guest.firstname,
    lastname: guest.lastname,
    email: buyer.email,
    email_key: buyer.emailKey,
    client_address: buyer.clientAddress ?? null,
    contact_number: guest.contactNumber,
    billing_line1: bill.line1,
    billing_line2: bill.line2,
    billing_line3: bill.line3,
    billing_postcode: bill.postcode.toUpperCase(),
    billing_town_city: bill.townCity,
    billing_country_id: bill.countryId,
    billing_country_name: priced.billingAddress?.countryName ?? '',
    delivery_line1: ship.line1,
    delivery_line2: ship.line2,
    delivery_line3: ship.line3,
    delivery_postcode: ship.postcode.toUpperCase(),
    delivery_town_city: ship.townCity,
    delivery_country_id: ship.countryId,
    delivery_country_name: priced.deliveryAddress?.countryName ?? '',
    delivery_method_id: priced.deliveryMethodRateId as number,
    delivery_method_name: priced.deliveryMethodName ?? '',
    delivery_kind: priced.deliveryMethodRates.find((m) => m.id === priced.deliveryMethodRateId)?.kind ?? 'delivery',
    delivery_price: priced.deliveryPrice ?? 0,
    voucher_code: priced.appliedVouchers[0]?.code ?? null,
    items_total: priced.itemsTotal,
    discount_amount: priced.discountAmount,
    total_vat: priced.totalVat,
    total_excluding_delivery: priced.totalPriceExcludingDelivery,
    total_including_delivery: priced.totalPriceIncludingDelivery,
    created_at: at,
    reserved_until: reservation.reservedUntil,
    held_since: reservation.heldSince,
    replaces_order_id: reservation.replacesOrderId,
    updated_at: at,
  };
}

/** A new order's line row, from a priced basket line (the order's id is added as it is inserted). */
export function newOrderLineRow(line: BasketLine): Omit<Insertable<OrderLineTable>, 'order_id'> {
  return {
    product_stock_id: line.productStockId,
    product_id: line.productId,
    title: line.title,
    size_name: line.sizeName,
    unit_price: line.price,
    quantity: line.requestedQty as number,
    line_total: line.lineTotal,
  };
}

/** An order line as a basket line: the units the order holds are the ones available to it. */
export function basketLineOf(line: OrderLineRow): BasketLine {
  return {
    productStockId: line.product_stock_id,
    productId: line.product_id,
    requestedQty: line.quantity,
    availableStock: line.quantity,
    hasError: false,
    errorCode: null,
    title: line.title,
    sizeName: line.size_name,
    urlKey: '',
    imageUrl: '',
    price: line.unit_price,
    priceWithoutDiscount: line.unit_price,
    priceReduction: 0,
    lineTotal: line.line_total,
  };
}

/** An unpaid order as the basket it was committed from, at the prices it was committed at. */
export function basketOfOrder(order: OrderRow, lines: OrderLineRow[]): PricedBasket {
  const address = (prefix: 'billing' | 'delivery') => ({
    line1: order[`${prefix}_line1`],
    line2: order[`${prefix}_line2`],
    line3: order[`${prefix}_line3`],
    postcode: order[`${prefix}_postcode`],
    townCity: order[`${prefix}_town_city`],
    countryId: order[`${prefix}_country_id`],
    countryName: order[`${prefix}_country_name`],
  });
  return {
    items: lines.map(basketLineOf),
    guest: {
      titleId: order.title_id,
      firstname: order.firstname,
      lastname: order.lastname,
      email: order.email,
      contactNumber: order.contact_number,
    },
    billingAddress: address('billing'),
    deliveryAddress: address('delivery'),
    deliveryMethodRates: [
      {
        id: order.delivery_method_id,
        name: order.delivery_method_name,
        rate: order.delivery_price,
        kind: order.delivery_kind,
      },
    ],
    deliveryMethodRateId: order.delivery_method_id,
    deliveryPrice: order.delivery_price,
    deliveryMethodName: order.delivery_method_name,
    appliedVouchers: order.voucher_code ? [{ code: order.voucher_code }] : [],
    lastVoucherOutcome: null,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    itemsTotal: order.items_total,
    discountAmount: order.discount_amount,
    totalVat: vatContainedIn(order.total_including_delivery),
    totalPriceExcludingDelivery: order.total_excluding_delivery,
    totalPriceIncludingDelivery: order.total_including_delivery,
    orderNumber: order.order_number,
    orderCode: order.order_code,
    // Only an order awaiting payment is recovered.
    paidOrderNumber: null,
  };
}
