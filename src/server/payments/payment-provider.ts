import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { PaymentHandoffAnswer } from '../../contract/payments.ts';
import type { Config } from '../config.ts';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.ts';
import type { PaymentEvents } from './payment-events.ts';

/**
 * One payment provider (docs/rules.md#payments; docs/decisions/0013-payment-providers.md). Every
 * provider the shop speaks to is one of these, built by a factory listed in providers.ts; the
 * configuration chooses which one starts new handoffs, while every provider's callbacks stay live
 * (a refund notice for an order paid through the previous choice still arrives).
 */
export interface PaymentProvider {
  /** What an order paid through it records as its payment_provider. */
  readonly id: string;
  /**
   * Starts the shopper's handoff for an order awaiting payment (the caller has checked that): a
   * form the browser posts, or an address to send the browser to.
   */
  handoff(order: OrderRow, lines: OrderLineRow[]): Promise<PaymentHandoffAnswer>;
  /** Its callbacks, returns and calls of its own, registered at the root with their full paths. */
  readonly routes: FastifyPluginAsync;
  /**
   * Sends money back through the provider. Absent when its protocol has no refund call we can make
   * (PayPal Standard: docs/rules.md#payments), or when the settings for it are not given (Opayo Form
   * without its Reporting API user, ADR 0014): staff then record a refund made outside the shop.
   */
  refund?(request: ProviderRefundRequest): Promise<ProviderRefundResult>;
  /**
   * Whether `refund` can send this order's money back (it needs the provider's reference for the
   * payment). Absent: it can whenever `refund` is there.
   */
  canRefund?(order: Pick<OrderRow, 'transaction_id'>): boolean;
  /**
   * What became of a refund `refund` answered `unknown` for, asked again later. Absent where the
   * provider reports its refunds itself (PayPal Checkout's webhooks settle them).
   */
  settleRefund?(request: ProviderRefundRequest): Promise<ProviderRefundResult>;
  /**
   * Whether a failed payment's status, as the provider reported it (orders.payment_status), is the
   * shopper's own cancel rather than a decline. Absent where a cancel never reaches the server
   * (PayPal sends the shopper back to its cancel address and tells the shop nothing).
   */
  cancelledByShopper?(providerStatus: string): boolean;
}

export interface ProviderRefundRequest {
  order: OrderRow;
  /** Pence, already reserved against the order's refunded total. */
  amount: number;
  /** Ours, unique per refund: the provider's idempotency key and its reconciliation reference. */
  requestId: string;
  note: string;
}

/**
 * `refunded`: the provider took it, with its reference. `refused`: it said no, nothing moved.
 * `unknown`: no answer (a timeout); the money may have moved, so the reservation is kept until the
 * provider reports the refund.
 */
export type ProviderRefundResult =
  | { outcome: 'refunded'; reference: string }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'unknown'; reason: string };

export type PaymentsConfig = Pick<
  Config,
  | 'paymentProvider'
  | 'livePaymentProviders'
  | 'paypal'
  | 'paypalIntegration'
  | 'paypalCheckout'
  | 'opayo'
  | 'publicUrl'
  | 'shop'
>;

/** What a provider is built with. */
export interface ProviderContext {
  db: Kysely<Database>;
  dialect: Dialect;
  config: PaymentsConfig;
  fetch: typeof fetch;
  clock: () => Date;
  events: PaymentEvents;
  rateLimitFactor: number;
}

export type ProviderFactory = (context: ProviderContext) => PaymentProvider;
