import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BasketCommit, CommitResponse, PricedBasket } from '../../contract/basket.ts';
import { errorCodes, refusalMessages } from '../../contract/error-codes.ts';
import { vatContainedIn } from '../../contract/money.ts';
import { gatherFacts } from '../basket/basket.service.ts';
import { mergeLines, priceBasket } from '../basket/pricing.ts';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError, RefusedError } from '../errors.ts';
import { expireOrder, holdsReservation, replaceOrder, reservationFor, reserveLines } from './order-lifecycle.ts';
import {
  findExpiredReservations,
  findOrderByCode,
  findOrderLines,
  insertOrder,
  lockUnpaidOrderKeys,
  nextOrderNumber,
  unpaidHoldings,
  useVoucher,
} from './orders.repository.ts';

/** Thrown inside the commit transaction to roll it back: the shopper's basket is out of date. */
class BasketChanged extends Error {}

/** What the shopper saw differs from what the database says now (POST /api/basket; docs/rules.md#orders-and-stock). */
function changedSinceSeen(request: BasketCommit, priced: PricedBasket): boolean {
  const requested = mergeLines(request.items);
  if (priced.items.length !== requested.length || priced.items.some((line) => line.hasError)) return true;
  const seenPrice = new Map(requested.map((item) => [item.productStockId, item.price]));
  if (priced.items.some((line) => (seenPrice.get(line.productStockId) ?? line.price) !== line.price)) return true;
  const wantedVoucher = (request.voucherCodeAttempt || request.appliedVouchers?.[0]?.code)?.trim().toUpperCase();
  if (wantedVoucher && priced.appliedVouchers[0]?.code !== wantedVoucher) return true;
  if (priced.deliveryMethodRateId === null) return true;
  const seenTotal = request.totalPriceIncludingDelivery;
  return seenTotal !== null && seenTotal !== undefined && seenTotal !== priced.totalPriceIncludingDelivery;
}

/**
 * Too many unpaid orders hold stock for this e-mail address or client (docs/rules.md#limits-on-one-client):
 * one client once emptied the shop for an hour with 254 of them. A value, not a bug; answered as a 429.
 */
export class TooManyUnpaidOrdersError extends RefusedError {
  constructor() {
    super(429, errorCodes.tooManyUnpaidOrders, refusalMessages.tooManyUnpaidOrders);
  }
}

/** A chain of replacements has held its stock as long as it may (order-lifecycle.ts, reservationFor). */
export class OrderHeldTooLongError extends RefusedError {
  constructor() {
    super(409, errorCodes.orderHeldTooLong, refusalMessages.orderHeldTooLong);
  }
}

/** One order larger than the unpaid-units cap on its own: no waiting or paying makes room for it. */
export class UnpaidOrderTooLargeError extends RefusedError {
  constructor() {
    super(422, errorCodes.unpaidOrderTooLarge, refusalMessages.unpaidOrderTooLarge);
  }
}

/**
 * An e-mail address as the unpaid-order caps count it: lower case, without a `+tag` and without
 * dots in the local part, since most mail services deliver those variants to the same mailbox.
 * (Two different people whose addresses differ only by dots share a count; that only makes their
 * cap tighter.)
 */
export function emailKeyOf(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email.trim().toLowerCase();
  const local = email.slice(0, at).trim().toLowerCase().replace(/\+.*$/, '').replaceAll('.', '');
  return `${local}@${email
    .slice(at + 1)
    .trim()
    .toLowerCase()}`;
}

/** 128 random bits, URL-safe: the key of the recovery link and the payment status (docs/rules.md#orders-and-stock). */
export function newOrderCode(): string {
  return randomBytes(16).toString('base64url');
}

export function createOrdersService(
  db: Kysely<Database>,
  options: {
    dialect: Dialect;
    reservationMinutes: number;
    clock?: () => Date;
    /** Unpaid orders that may hold stock at once; unlimited when not given. */
    unpaidOrderLimits?: { perEmail: number; perClient: number; unitsPerEmail: number; unitsPerClient: number };
  },
) {
  const clock = options.clock ?? (() => new Date());

  /**
   * Refuses a new order when, with it, its e-mail address or client would hold more unpaid orders,
   * or more units in them, than it may (docs/rules.md#limits-on-one-client; three orders once held the whole shop).
   */
  async function checkUnpaidOrderLimits(
    trx: Kysely<Database>,
    who: { emailKey: string; clientAddress: string | undefined },
    units: number,
    now: string,
  ): Promise<void> {
    const limits = options.unpaidOrderLimits;
    if (!limits) return;
    if (units > Math.min(limits.unitsPerEmail, limits.unitsPerClient)) throw new UnpaidOrderTooLargeError();
    const byEmail = await unpaidHoldings(trx, { emailKey: who.emailKey }, now);
    if (byEmail.orders + 1 > limits.perEmail || byEmail.units + units > limits.unitsPerEmail)
      throw new TooManyUnpaidOrdersError();
    if (who.clientAddress === undefined) return;
    const byClient = await unpaidHoldings(trx, { clientAddress: who.clientAddress }, now);
    if (byClient.orders + 1 > limits.perClient || byClient.units + units > limits.unitsPerClient)
      throw new TooManyUnpaidOrdersError();
  }

  async function reprice(request: BasketCommit): Promise<PricedBasket> {
    return priceBasket(request, await gatherFacts(db, request, clock()));
  }

  return {
    /**
     * POST /api/basket: validate, price, reserve stock, create the order, all in one transaction.
     * If anything changed since the shopper last looked, nothing is written and the answer is the
     * corrected basket.
     */
    async commit(request: BasketCommit, customerId?: number, clientAddress?: string): Promise<CommitResponse> {
      const now = clock();
      const email = request.guest.email.toLowerCase();
      const emailKey = emailKeyOf(email);
      try {
        return await db.transaction().execute(async (trx) => {
          await lockUnpaidOrderKeys(trx, options.dialect, [`email ${emailKey}`, `client ${clientAddress ?? ''}`]);
          const replaced = request.orderCode
            ? await replaceOrder(trx, request.orderCode, now.toISOString())
            : undefined;
          const reservation = reservationFor(replaced, now, options.reservationMinutes);
          if (!reservation) throw new OrderHeldTooLongError();
          const priced = priceBasket(request, await gatherFacts(trx, request, now));
          if (changedSinceSeen(request, priced)) throw new BasketChanged();
          const units = priced.items.reduce((sum, line) => sum + (line.requestedQty ?? 0), 0);
          await checkUnpaidOrderLimits(trx, { emailKey, clientAddress }, units, now.toISOString());
          const lines = priced.items.map((line) => ({
            productStockId: line.productStockId,
            quantity: line.requestedQty as number,
          }));
          if (!(await reserveLines(trx, lines))) throw new BasketChanged();
          const voucherCode = priced.appliedVouchers[0]?.code ?? null;
          if (voucherCode && !(await useVoucher(trx, voucherCode))) throw new BasketChanged();
          const orderNumber = await nextOrderNumber(trx, options.dialect);
          const orderCode = newOrderCode();
          const at = now.toISOString();
          const { guest, billingAddress: bill, deliveryAddress: ship } = request;
          await insertOrder(
            trx,
            {
              order_number: orderNumber,
              order_code: orderCode,
              status: 'pending_payment',
              customer_id: customerId ?? null,
              title_id: guest.titleId,
              firstname: guest.firstname,
              lastname: guest.lastname,
              email,
              email_key: emailKey,
              client_address: clientAddress ?? null,
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
              delivery_price: priced.deliveryPrice ?? 0,
              voucher_code: voucherCode,
              items_total: priced.itemsTotal,
              discount_amount: priced.discountAmount,
              total_vat: priced.totalVat,
              total_excluding_delivery: priced.totalPriceExcludingDelivery,
              total_including_delivery: priced.totalPriceIncludingDelivery,
              created_at: at,
              reserved_until: reservation.reservedUntil,
              held_since: reservation.heldSince,
              updated_at: at,
            },
            priced.items.map((line) => ({
              product_stock_id: line.productStockId,
              product_id: line.productId,
              title: line.title,
              size_name: line.sizeName,
              unit_price: line.price,
              quantity: line.requestedQty as number,
              line_total: line.lineTotal,
            })),
          );
          return { ok: true as const, orderNumber, orderCode };
        });
      } catch (error) {
        if (!(error instanceof BasketChanged)) throw error;
        return { ok: false, basket: await reprice(request) };
      }
    },

    /** GET /api/recover-basket/{code}: an unpaid order still holding its stock, as a basket. */
    async recover(code: string): Promise<PricedBasket> {
      const order = await findOrderByCode(db, code);
      if (!order || !holdsReservation(order, clock()))
        throw new NotFoundError('No order awaiting payment has that code');
      const lines = await findOrderLines(db, order.id);
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
        items: lines.map((line) => ({
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
        })),
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
          { id: order.delivery_method_id, name: order.delivery_method_name, rate: order.delivery_price },
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
      };
    },

    /**
     * Releases the stock of unpaid orders whose reservation has run out. Safe with several
     * instances: only the one whose status change succeeds puts the stock back.
     */
    async releaseExpiredReservations(limit = 200): Promise<number> {
      const now = clock().toISOString();
      let released = 0;
      for (const orderId of await findExpiredReservations(db, now, limit)) {
        const done = await db.transaction().execute((trx) => expireOrder(trx, orderId, now));
        if (done) released++;
      }
      return released;
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
