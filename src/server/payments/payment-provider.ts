import type { FastifyBaseLogger, FastifySchema } from 'fastify';
import type { PaymentHandoffAnswer } from '../../contract/payments.ts';
import type { Config } from '../config.ts';
import type { markOrderPaid, RefundQuestion } from '../orders/order-lifecycle.ts';
import type { PaymentOrder, PaymentOrderLine } from '../orders/order-payments.ts';

/**
 * One payment provider, as a protocol adapter (docs/rules.md#payments;
 * docs/decisions/0013-payment-providers.md, 0025-payment-adapters.md). An adapter speaks its
 * provider's protocol and nothing else: it builds the shopper's handoff, verifies what the provider
 * sends (a return, a notification, a webhook) and translates it into a typed `ProviderEvent`, and
 * calls the provider's refund. It never reads the orders table nor moves an order: the payments
 * service applies its events through the order lifecycle (the amount and payment checks, each event
 * once, the e-mail in the same transaction), and registers the routes it declares. Each adapter is
 * built by a factory listed in providers.ts; the configuration chooses which one starts new
 * handoffs, while every live provider's routes stay (a refund notice for an order paid through the
 * previous choice still arrives).
 */
export interface PaymentProvider {
  /** What an order paid through it records as its payment_provider. */
  readonly id: string;
  /**
   * Starts the shopper's handoff for an order awaiting payment (the caller has checked that): a
   * form the browser posts, or an address to send the browser to.
   */
  handoff(order: PaymentOrder, lines: PaymentOrderLine[]): Promise<PaymentHandoffAnswer>;
  /** Its returns, notifications and calls of its own, registered by payments.routes.ts at their full paths. */
  readonly routes: readonly ProviderRoute[];
  /**
   * Sends money back through the provider: its answer, with the refund it made as an event for the
   * service to apply. Absent when its protocol has no refund call we can make (PayPal Standard:
   * docs/rules.md#payments), or when the settings for it are not given (Opayo Form without its
   * Reporting API user, ADR 0014): staff then record a refund made outside the shop.
   */
  refund?(request: ProviderRefundRequest): Promise<ProviderRefundResult>;
  /**
   * Whether `refund` can send this order's money back (it needs the provider's reference for the
   * payment). Absent: it can whenever `refund` is there.
   */
  canRefund?(order: Pick<PaymentOrder, 'transaction_id'>): boolean;
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

export type ProviderRefundRequest = RefundQuestion;

/**
 * `refunded`: the provider took it; its refund, as an event the service applies (settling our
 * request). `refused`: it said no, nothing moved. `unknown`: no answer (a timeout); the money may
 * have moved, so the reservation is kept until the provider reports the refund.
 */
export type ProviderRefundResult =
  | { outcome: 'refunded'; event: RefundEvent }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'unknown'; reason: string };

/** What every event carries: its idempotency key, the provider's own status, and what to keep of it. */
interface Received {
  /** Unique per event: a second event with the same key changes nothing. */
  key: string;
  providerStatus: string;
  /** What is kept of the message, for staff reading the order's history. */
  body: string;
}

/** Money the provider says moved for an order: the service checks it against the order. */
interface Money {
  orderNumber: number;
  /** Pence; undefined when the provider's figure did not read (never the order's amount). */
  amount: number | undefined;
  currency: string;
}

/** The payment was taken: the order is paid (or, paid already by another payment, flagged to refund). */
export type CapturedEvent = Received & Money & { type: 'captured'; reference: string; authCode?: string | null };
/** Declined (`failed`) or the shopper's own cancel on the provider's page (`cancelled`). */
export type FailedEvent = Received & Money & { type: 'failed' | 'cancelled'; reference?: string | null };
/** A status of the payment that moves nothing (PayPal's Pending): noted on the order. */
export type PendingEvent = Received & Money & { type: 'pending' };
/**
 * Money going back: a refund (`requestId` names ours, reserved before the provider was asked), a
 * reversal (a chargeback), a cancelled reversal (money coming back in), or a refund the provider
 * has not completed (noted only). `paymentReference` is the payment it is a refund of.
 */
export type RefundEvent = Received &
  Money & {
    type: 'refunded' | 'reversed' | 'reversal-cancelled' | 'refund-pending';
    reference: string;
    paymentReference: string;
    requestId?: string;
  };
/** A message the adapter cannot believe or use: recorded (under its key) with why, and nothing moved. */
export type RejectedEvent = Received & { type: 'rejected'; reason: string; orderNumber?: number };

export type ProviderEvent = CapturedEvent | FailedEvent | PendingEvent | RefundEvent | RejectedEvent;

/** What applying an event did; recorded with it (`outcomeText`) and counted in the metrics. */
export type Applied =
  | { outcome: Awaited<ReturnType<typeof markOrderPaid>> }
  | { outcome: 'failed' }
  | { outcome: 'ignored'; providerStatus: string; orderStatus: string }
  | { outcome: 'recorded'; what: string }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'duplicate' };

/** An outcome as payment_events.outcome keeps it and the back office shows it. */
export function outcomeText(applied: Applied): string {
  switch (applied.outcome) {
    case 'ignored':
      return `ignored ${applied.providerStatus}: order is ${applied.orderStatus}`;
    case 'recorded':
      return `recorded ${applied.what}`;
    case 'rejected':
      return `rejected: ${applied.reason}`;
    default:
      return applied.outcome;
  }
}

/**
 * A route an adapter declares: path, method, how its body is read, its schema and limits, and
 * what it answers. payments.routes.ts registers it; its handler applies state changes only
 * through `PaymentsPort`.
 */
export interface ProviderRoute {
  method: 'GET' | 'POST';
  url: string;
  /**
   * `raw-form`: a form post kept byte for byte, as a string (PayPal's IPN is posted back to PayPal
   * exactly as it came). Otherwise Fastify's own parsing (JSON).
   */
  body?: 'raw-form';
  bodyLimit?: number;
  /** Requests per minute per client (scaled by RATE_LIMIT_FACTOR). */
  perMinute?: number;
  /** Zod schemas, as the shop's own routes declare them: validated before `handle` is called. */
  schema?: FastifySchema;
  handle(request: ProviderRequest): Promise<ProviderAnswer>;
}

export interface ProviderRequest {
  query: unknown;
  params: unknown;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  log: FastifyBaseLogger;
}

/** `empty`: a 200 with no body (what PayPal wants for every notification it delivered). */
export type ProviderAnswer = { kind: 'redirect'; to: string } | { kind: 'empty' } | { kind: 'json'; body: unknown };

/**
 * What an adapter may ask of the payments service: apply an event, and the few reads and claims a
 * protocol needs, none of them the orders table itself.
 */
export interface PaymentsPort {
  /** Applies an event once (its key), through the order lifecycle, with its e-mail. */
  apply(event: ProviderEvent): Promise<Applied>;
  /** Whether an order of this number exists (looked up only once the message is believed). */
  knowsOrder(orderNumber: number): Promise<boolean>;
  /** An order awaiting payment, for a provider's own handoff call; 404, or 409 when paid for. */
  awaitingPayment(
    lookup: { code: string } | { orderNumber: number; code: string },
  ): Promise<{ order: PaymentOrder; lines: PaymentOrderLine[] }>;
  /** Notes the provider's own id for a handoff it created (PayPal Checkout's order id). */
  recordCheckout(orderId: number, reference: string): Promise<void>;
  /** The number of the order a provider's handoff id belongs to, if it is one of ours. */
  orderNumberOfCheckout(reference: string): Promise<number | undefined>;
  /**
   * Claims the order a handoff id belongs to for capturing it (one capture per order at a time),
   * or answers why not (for the log): it names no order, is paid, or another capture holds it.
   */
  claimCapture(reference: string): Promise<{ orderNumber: number } | { refused: string }>;
  /** Gives the claim up once the provider answered, unless the order is paid. */
  releaseCapture(reference: string): Promise<void>;
  /** Keeps only the newest `keep` events whose key starts with `keyPrefix` (unverified messages). */
  pruneEvents(keyPrefix: string, keep: number): Promise<void>;
}

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

/** What an adapter is built with: no database, only the service's port. */
export interface AdapterContext {
  config: PaymentsConfig;
  /** The shop's name as the owner's settings stand now: on the provider's payment page and statements. */
  shopName: () => Promise<string>;
  fetch: typeof fetch;
  clock: () => Date;
  payments: PaymentsPort;
}

export type AdapterFactory = (context: AdapterContext) => PaymentProvider;
