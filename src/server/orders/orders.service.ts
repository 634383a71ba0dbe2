import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BasketCommit, CommitResponse, PricedBasket } from '../../contract/basket.ts';
import { MAX_ORDER_TOTAL } from '../../contract/basket-rules.ts';
import { errorCodes, refusalMessages } from '../../contract/error-codes.ts';
import { messages } from '../../contract/messages.ts';
import { gatherFacts, gatherFactsAtOnce } from '../basket/basket.service.ts';
import { mergeLines, priceBasket, type PricingFacts } from '../basket/pricing.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import { addCommitPhase, commitTimingOn, timedCommit, timedPhase } from './commit-timing.ts';
import { emailKeyOf } from './email-key.ts';
import {
  expireOrder,
  holdsReservation,
  OrderAlreadyPaidError,
  replaceOrder,
  reservationFor,
} from './order-lifecycle.ts';
import { basketOfOrder, newOrderLineRow, newOrderRow, type Buyer, type NewOrder } from './order-rows.ts';
import {
  findExpiredReservations,
  findOrderByCode,
  findOrderLines,
  insertNewOrder,
  lockUnpaidOrderKeys,
  type UnpaidHoldings,
  takeStockAndVoucher,
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
 * An order coming to more than MAX_ORDER_TOTAL (£1,000,000; docs/rules.md#prices-and-money): beyond
 * any basket of instruments, and the bound that keeps every order's money exact and within the
 * database's integer columns and the providers' amounts. A value, not a bug; answered as a 422.
 */
export class OrderTotalTooLargeError extends RefusedError {
  constructor() {
    super(422, errorCodes.orderTotalTooLarge, refusalMessages.orderTotalTooLarge);
  }
}

/**
 * An order coming to £0.00 (a 100% voucher with free delivery; docs/rules.md#orders-and-stock). The
 * providers refuse to take £0.00, so it could never be paid and would hold its stock until it
 * lapsed; and an order is marked paid only by a provider's confirmation, so it is not placed.
 */
export class NothingToPayError extends RefusedError {
  constructor() {
    super(422, errorCodes.nothingToPay, refusalMessages.nothingToPay);
  }
}

/** 128 random bits, URL-safe: the key of the recovery link and the payment status (docs/rules.md#orders-and-stock). */
export function newOrderCode(): string {
  return randomBytes(16).toString('base64url');
}

/*
 * The steps of a commit, in the order it takes them. Each that finds the basket out of date throws
 * BasketChanged, which rolls the whole transaction back.
 */

function buyerOf(request: BasketCommit, customerId: number | undefined, clientAddress: string | undefined): Buyer {
  const email = request.guest.email.toLowerCase();
  return { customerId, email, emailKey: emailKeyOf(email), clientAddress };
}

/** Commits by the same e-mail address or client wait for each other, so their unpaid-order counts cannot interleave. */
function waitForSameBuyer(trx: Kysely<Database>, buyer: Buyer): Promise<void> {
  return lockUnpaidOrderKeys(trx, [`email ${buyer.emailKey}`, `client ${buyer.clientAddress ?? ''}`]);
}

/**
 * How long the new order holds its stock: a fresh reservation, or what is left of the unpaid order
 * this commit replaces (BACK TO CART), which is cancelled and released first. An order paid since
 * is not bought again.
 */
async function reservationOf(
  trx: Kysely<Database>,
  replacedOrderCode: string | null | undefined,
  now: Date,
  reservationMinutes: number,
): Promise<{ heldSince: string; reservedUntil: string; replacesOrderId: number | null; replacedOne: boolean }> {
  const replaced = replacedOrderCode ? await replaceOrder(trx, replacedOrderCode, now.toISOString()) : undefined;
  if (replaced === 'already paid') throw new OrderAlreadyPaidError();
  const reservation = reservationFor(replaced, now, reservationMinutes);
  if (!reservation) throw new OrderHeldTooLongError();
  return { ...reservation, replacesOrderId: replaced?.orderId ?? null, replacedOne: replaced !== undefined };
}

/**
 * A title or country the shop does not have is a bad request, not a changed basket: the form only
 * offers the shop's own, so the shopper cannot correct it by looking again.
 */
function refuseUnknownChoices(request: BasketCommit, facts: PricingFacts): void {
  if (!facts.titleIds.has(request.guest.titleId)) {
    throw new BadRequestError(messages.address.title, 'guest.titleId');
  }
  for (const which of ['billingAddress', 'deliveryAddress'] as const) {
    if (!facts.countryNames.has(request[which].countryId)) {
      throw new BadRequestError(messages.address.country, `${which}.countryId`);
    }
  }
}

/**
 * The basket priced afresh from the database, as long as that is what the shopper saw; with the
 * buyer's unpaid orders counted in the same statement when their limits are to be checked.
 */
async function priceAsSeen(
  trx: Kysely<Database>,
  request: BasketCommit,
  now: Date,
  holdingsOf: Buyer | undefined,
): Promise<{ priced: PricedBasket; holdings: UnpaidHoldings | undefined }> {
  const { facts, holdings } = await gatherFactsAtOnce(trx, request, now, holdingsOf);
  refuseUnknownChoices(request, facts);
  const priced = priceBasket(request, facts);
  if (changedSinceSeen(request, priced)) throw new BasketChanged();
  return { priced, holdings };
}

/** The total to be paid must be one a provider can take: above £0.00 and at most MAX_ORDER_TOTAL. */
function refuseUnpayableTotal(priced: PricedBasket): void {
  if (priced.totalPriceIncludingDelivery <= 0) throw new NothingToPayError();
  if (priced.totalPriceIncludingDelivery > MAX_ORDER_TOTAL) throw new OrderTotalTooLargeError();
}

function unitsIn(priced: PricedBasket): number {
  return priced.items.reduce((sum, line) => sum + (line.requestedQty ?? 0), 0);
}

/**
 * Takes the lines' stock and one use of the voucher, the last step of a commit, so the rows every
 * shopper in a sale wants stay locked only until the commit; either running out since pricing is a
 * changed basket.
 */
async function reserveStockAndVoucher(trx: Kysely<Database>, priced: PricedBasket): Promise<void> {
  const lines = priced.items.map((line) => ({
    productStockId: line.productStockId,
    quantity: line.requestedQty as number,
  }));
  if (!(await takeStockAndVoucher(trx, lines, priced.appliedVouchers[0]?.code ?? null))) throw new BasketChanged();
}

/**
 * Numbers the new order and writes it with its lines, before its stock is taken: rolled back with
 * the rest when the stock has run out (an order number may then go unused, as a sequence's may).
 */
async function createOrder(
  trx: Kysely<Database>,
  order: NewOrder,
): Promise<{ orderNumber: number; orderCode: string }> {
  const orderCode = newOrderCode();
  const orderNumber = await insertNewOrder(
    trx,
    newOrderRow({ ...order, orderCode }),
    order.priced.items.map(newOrderLineRow),
  );
  return { orderNumber, orderCode };
}

export function createOrdersService(
  db: Kysely<Database>,
  options: {
    reservationMinutes: number;
    clock?: () => Date;
    /** Unpaid orders that may hold stock at once; unlimited when not given. */
    unpaidOrderLimits?: { perEmail: number; perClient: number; unitsPerEmail: number; unitsPerClient: number };
    /** Told of each order created, cancelled by being replaced, or expired, once its transaction committed (the metrics). */
    onOrderEvent?: (event: 'created' | 'cancelled' | 'expired') => void;
  },
) {
  const clock = options.clock ?? (() => new Date());

  /**
   * Refuses a new order when, with it, its e-mail address or client would hold more unpaid orders,
   * or more units in them, than it may (docs/rules.md#limits-on-one-client; three orders once held the whole shop).
   */
  function checkUnpaidOrderLimits(holdings: UnpaidHoldings | undefined, units: number): void {
    const limits = options.unpaidOrderLimits;
    if (!limits || !holdings) return;
    if (units > Math.min(limits.unitsPerEmail, limits.unitsPerClient)) throw new UnpaidOrderTooLargeError();
    const { byEmail, byClient } = holdings;
    if (byEmail.orders + 1 > limits.perEmail || byEmail.units + units > limits.unitsPerEmail)
      throw new TooManyUnpaidOrdersError();
    if (byClient === undefined) return;
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
      // Each step is one round trip on PostgreSQL (ADR 0018); with BENCH_COMMIT_TIMING=1 each is
      // timed for bench:sale (commit-timing.ts), otherwise timedPhase only calls it.
      return timedCommit(async () => {
        const now = clock();
        const buyer = buyerOf(request, customerId, clientAddress);
        const asked = commitTimingOn ? performance.now() : 0;
        let ended = 0;
        try {
          const committed = await db.transaction().execute(async (trx) => {
            // The connection's wait (database.ts tells it) and BEGIN's round trip.
            if (commitTimingOn) addCommitPhase('pool wait and BEGIN', performance.now() - asked);
            await timedPhase('unpaid-order locks (advisory)', () => waitForSameBuyer(trx, buyer));
            const { replacedOne, ...reservation } = await timedPhase('replaced order', () =>
              reservationOf(trx, request.orderCode, now, options.reservationMinutes),
            );
            // The buyer's unpaid orders are counted in the facts' statement, after their locks.
            const { priced, holdings } = await timedPhase('pricing facts, unpaid holdings and pricing', () =>
              priceAsSeen(trx, request, now, options.unpaidOrderLimits ? buyer : undefined),
            );
            refuseUnpayableTotal(priced);
            checkUnpaidOrderLimits(holdings, unitsIn(priced));
            const created = await timedPhase('order insert', () =>
              createOrder(trx, {
                request,
                priced,
                buyer,
                reservation,
                at: now.toISOString(),
              }),
            );
            await timedPhase('stock and voucher (row locks)', () => reserveStockAndVoucher(trx, priced));
            if (commitTimingOn) ended = performance.now();
            return { ok: true as const, ...created, replacedOne };
          });
          if (commitTimingOn) addCommitPhase('COMMIT', performance.now() - ended);
          const { replacedOne, ...answer } = committed;
          if (replacedOne) options.onOrderEvent?.('cancelled');
          options.onOrderEvent?.('created');
          return answer;
        } catch (error) {
          if (!(error instanceof BasketChanged)) throw error;
          return { ok: false, basket: await timedPhase('repricing a changed basket', () => reprice(request)) };
        }
      });
    },

    /** GET /api/recover-basket/{code}: an unpaid order still holding its stock, as a basket. */
    async recover(code: string): Promise<PricedBasket> {
      const order = await findOrderByCode(db, code);
      if (!order || !holdsReservation(order, clock()))
        throw new NotFoundError('No order awaiting payment has that code');
      return basketOfOrder(order, await findOrderLines(db, order.id));
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
        if (done) {
          released++;
          options.onOrderEvent?.('expired');
        }
      }
      return released;
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
