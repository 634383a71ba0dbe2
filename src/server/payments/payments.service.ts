import type { OrderPagePath } from '../order-page/order-page.service.ts';
import type { Kysely } from 'kysely';
import type { OrderStatusAnswer, PaymentHandoffAnswer } from '../../contract/payments.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  claimCapture,
  isPaidFor,
  markOrderPaid,
  markPaymentFailed,
  recordReportedRefund,
  releaseCaptureClaim,
  type RefundAnswer,
  type RefundingProvider,
  type RefundQuestion,
} from '../orders/order-lifecycle.ts';
import {
  findPaymentOrder,
  noteProviderStatus,
  orderAwaitingPayment,
  transactionUsedElsewhere,
  type PaymentOrder,
} from '../orders/order-payments.ts';
import { NotFoundError } from '../errors.ts';
import { createPaymentEvents } from './payment-events.ts';
import {
  outcomeText,
  type AdapterFactory,
  type Applied,
  type PaymentProvider,
  type PaymentsConfig,
  type PaymentsPort,
  type ProviderEvent,
  type ProviderRefundResult,
} from './payment-provider.ts';
import { findOrderIdByCheckout, insertProviderCheckout, pruneEvents } from './payments.repository.ts';
import { providerFactories, startingProvider, type ProviderId } from './providers.ts';

/**
 * Payments behind one interface (docs/rules.md#payments; docs/decisions/0013-payment-providers.md,
 * 0025-payment-adapters.md). Each provider is a protocol adapter (providers/): it starts its
 * handoff, translates what its provider sends into typed events, and, where its protocol allows,
 * refunds. This service applies every event through the order lifecycle, with the same checks for
 * every provider (the order's amount and currency, the payment a refund names, the payment's id
 * used once), each once (payment-events.ts); an order is marked paid only by the provider's own
 * confirmation. It also chooses the provider that starts new handoffs and answers what the shop's
 * pages ask of any of them.
 */

// The IPN listener's bounds live with PayPal Standard; its tests read them here.
export {
  MAX_UNVERIFIED_NOTIFICATIONS_KEPT,
  UNVERIFIED_BODY_CHARS_KEPT,
} from './providers/paypal-standard/paypal-standard.provider.ts';

/** Which kind of refund, reversal or cancelled reversal an event records (order_refunds.kind). */
const refundKinds = {
  refunded: 'refund',
  reversed: 'reversal',
  'reversal-cancelled': 'reversal_cancelled',
} as const;

export function createPaymentsService(
  db: Kysely<Database>,
  config: PaymentsConfig,
  options: {
    /** Which database it is: a late payment takes its stock again as that one needs. */
    fetch?: typeof fetch;
    /** The shop's name as the owner's settings stand now; the environment's when not given. */
    shopName?: () => Promise<string>;
    clock?: () => Date;
    mailer?: Mailer;
    /** The signed link to an order's VAT invoice, for its confirmation e-mail. */
    invoiceUrl?: (orderNumber: number, linkVersion: number) => string;
    /** An order's page path (order-page.service.ts), which the confirmation page links to once paid. */
    orderPagePath?: OrderPagePath;
    /** Told of each notification, return or capture applied: its provider and outcome (the metrics). */
    onNotification?: (provider: string, outcome: string) => void;
    /**
     * Providers beyond the configured ones, live beside them (a test's fake provider): keyed by the
     * id their orders record.
     */
    adapters?: Record<string, AdapterFactory>;
  },
) {
  const clock = options.clock ?? (() => new Date());
  const events = createPaymentEvents(db, {
    clock,
    publicUrl: config.publicUrl,
    ...(options.onNotification ? { onApplied: options.onNotification } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.invoiceUrl ? { invoiceUrl: options.invoiceUrl } : {}),
  });

  /** What an event does to its order, decided in the transaction that records it. */
  async function decide(
    trx: Kysely<Database>,
    provider: string,
    event: ProviderEvent,
    at: string,
  ): Promise<{ orderId: number | null; applied: Applied }> {
    const rejected = (orderId: number | null, reason: string) => ({
      orderId,
      applied: { outcome: 'rejected', reason } as const,
    });
    const order =
      event.orderNumber === undefined ? undefined : await findPaymentOrder(trx, { orderNumber: event.orderNumber });
    if (event.type === 'rejected') return rejected(order?.id ?? null, event.reason);
    if (!order) return rejected(null, 'names no order');
    const refunds = event.type === 'refunded' || event.type === 'reversed' || event.type === 'reversal-cancelled';
    if (
      (refunds || event.type === 'refund-pending') &&
      (order.status !== 'paid' || !order.transaction_id || event.paymentReference !== order.transaction_id)
    )
      return rejected(order.id, "not this order's payment");
    if (event.currency !== 'GBP') return rejected(order.id, 'wrong currency');
    const amountRight =
      refunds || event.type === 'refund-pending'
        ? event.amount !== undefined && event.amount > 0
        : event.amount === order.total_including_delivery;
    if (!amountRight) return rejected(order.id, 'wrong amount');
    const payment = { provider, providerStatus: event.providerStatus };
    switch (event.type) {
      case 'captured': {
        if (event.reference && (await transactionUsedElsewhere(trx, event.reference, order.id)))
          return rejected(order.id, 'transaction id already used');
        const paid = {
          ...payment,
          transactionId: event.reference,
          ...(event.authCode !== undefined ? { authCode: event.authCode } : {}),
        };
        return { orderId: order.id, applied: { outcome: await markOrderPaid(trx, order, paid, at) } };
      }
      case 'failed':
      case 'cancelled': {
        // Only an order still awaiting its payment fails; a late failure for a paid one is noted only.
        const failed = await markPaymentFailed(
          trx,
          order.id,
          { ...payment, ...(event.reference !== undefined ? { transactionId: event.reference } : {}) },
          at,
        );
        return {
          orderId: order.id,
          applied: failed
            ? { outcome: 'failed' }
            : { outcome: 'ignored', providerStatus: event.providerStatus, orderStatus: order.status },
        };
      }
      case 'pending':
        await noteProviderStatus(trx, order.id, provider, event.providerStatus, at);
        return { orderId: order.id, applied: { outcome: 'recorded', what: event.providerStatus } };
      case 'refund-pending':
        return { orderId: order.id, applied: { outcome: 'recorded', what: `refund ${event.providerStatus}` } };
      default: {
        const recorded = await recordReportedRefund(
          trx,
          order,
          {
            kind: refundKinds[event.type],
            amount: event.amount as number,
            provider,
            reference: event.reference,
            ...(event.requestId ? { requestId: event.requestId } : {}),
          },
          at,
        );
        if ('refused' in recorded) return rejected(order.id, recorded.refused);
        // The provider's word on the payment, where it has one of its own (PayPal's Refunded).
        if (event.providerStatus !== order.payment_status)
          await noteProviderStatus(trx, order.id, provider, event.providerStatus, at);
        return {
          orderId: order.id,
          applied: { outcome: 'recorded', what: recorded.staffHad ? 'refund staff had recorded' : recorded.recorded },
        };
      }
    }
  }

  function portFor(provider: string): PaymentsPort {
    return {
      apply: (event) =>
        events.once(
          { key: event.key, provider, providerStatus: event.providerStatus || 'none', body: event.body },
          (trx, at) => decide(trx, provider, event, at),
        ),
      knowsOrder: async (orderNumber) => (await findPaymentOrder(db, { orderNumber })) !== undefined,
      awaitingPayment: (lookup) => orderAwaitingPayment(db, lookup, clock()),
      recordCheckout: (orderId, reference) =>
        insertProviderCheckout(db, { orderId, provider, reference, at: clock().toISOString() }),
      async orderNumberOfCheckout(reference) {
        const orderId = await findOrderIdByCheckout(db, provider, reference);
        return orderId === undefined ? undefined : (await findPaymentOrder(db, { id: orderId }))?.order_number;
      },
      async claimCapture(reference) {
        const orderId = await findOrderIdByCheckout(db, provider, reference);
        const order = orderId === undefined ? undefined : await findPaymentOrder(db, { id: orderId });
        if (!order) return { refused: 'rejected: names no order' };
        if (order.status === 'paid') return { refused: 'already paid' };
        // The basket it was for is paid already, through the order it replaced or the one that
        // replaced it (two tabs): the shopper is not charged twice for it.
        if (await isPaidFor(db, order)) return { refused: 'already paid: another order for its basket is' };
        // One capture per order: of two handoffs for it (both approved) coming back at once, only
        // the one that claims the order is captured; the provider lets the other lapse.
        if (!(await claimCapture(db, order.id, reference, clock())))
          return { refused: 'not captured: the order is paid or another of its checkouts is being captured' };
        return { orderNumber: order.order_number };
      },
      async releaseCapture(reference) {
        const orderId = await findOrderIdByCheckout(db, provider, reference);
        if (orderId !== undefined) await releaseCaptureClaim(db, orderId, reference);
      },
      pruneEvents: (keyPrefix, keep) => pruneEvents(db, keyPrefix, keep),
    };
  }

  // Only the providers the shop has settings for (config.livePaymentProviders), and any given
  // beside them: the others' routes are not there, and their orders are refunded outside the shop.
  const factories: Record<string, AdapterFactory> = {
    ...Object.fromEntries(config.livePaymentProviders.map((id) => [id, providerFactories[id]])),
    ...options.adapters,
  };
  const providers: Record<string, PaymentProvider> = Object.fromEntries(
    Object.entries(factories).map(([id, factory]) => [
      id,
      factory({
        config,
        shopName: options.shopName ?? (async () => config.shop.name),
        fetch: options.fetch ?? fetch,
        clock,
        payments: portFor(id),
      }),
    ]),
  );
  const starting = providers[startingProvider(config) satisfies ProviderId];
  if (!starting) throw new Error(`the payment provider ${startingProvider(config)} has no settings`);

  /**
   * A provider's refund answer as the refund workflow takes it: a refund made is applied as its
   * event first (settling our request, recording it once), so the workflow finds it recorded.
   */
  async function answerOf(provider: PaymentProvider, result: ProviderRefundResult): Promise<RefundAnswer> {
    if (result.outcome !== 'refunded') return result;
    const applied = await portFor(provider.id).apply(result.event);
    const text = outcomeText(applied);
    if (text !== 'recorded refund' && text !== 'duplicate') return { outcome: 'unknown', reason: text };
    return { outcome: 'refunded', reference: result.event.reference };
  }

  /** The provider as the refund workflow asks it (order-lifecycle.ts). */
  function refunding(provider: PaymentProvider): RefundingProvider {
    const { refund, settleRefund, canRefund } = provider;
    return {
      id: provider.id,
      ...(refund ? { refund: async (question: RefundQuestion) => answerOf(provider, await refund(question)) } : {}),
      ...(settleRefund
        ? { settleRefund: async (question: RefundQuestion) => answerOf(provider, await settleRefund(question)) }
        : {}),
      ...(canRefund ? { canRefund: (order: Pick<PaymentOrder, 'transaction_id'>) => canRefund(order) } : {}),
    };
  }
  const refunders = Object.fromEntries(Object.entries(providers).map(([id, provider]) => [id, refunding(provider)]));

  return {
    /** Every live provider, each with its routes, whichever starts new handoffs. */
    providers: Object.values(providers),

    /** The provider that paid an order (its payment_provider), if the shop still speaks to it. */
    providerOf(id: string | null): RefundingProvider | undefined {
      return id !== null && Object.hasOwn(refunders, id) ? refunders[id] : undefined;
    },

    /** GET /api/payment-provider: which kind of provider this shop uses. */
    provider(): string {
      return config.paymentProvider;
    },

    /** GET /api/payment-handoff/{code}: where the browser goes to pay for an order awaiting payment. */
    async handoff(orderCode: string): Promise<PaymentHandoffAnswer> {
      const { order, lines } = await orderAwaitingPayment(db, { code: orderCode }, clock());
      return starting.handoff(order, lines);
    },

    /** GET /api/order-status/{code}: what the confirmation page shows. */
    async orderStatus(code: string): Promise<OrderStatusAnswer> {
      const order = await findPaymentOrder(db, { code });
      if (!order) throw new NotFoundError('No order has that code');
      const provider =
        order.payment_provider !== null && Object.hasOwn(providers, order.payment_provider)
          ? providers[order.payment_provider]
          : undefined;
      return {
        orderNumber: order.order_number,
        status: order.status,
        provider: order.payment_provider,
        transactionId: order.status === 'paid' ? order.transaction_id : null,
        orderPagePath: order.status === 'paid' ? (options.orderPagePath?.(order) ?? null) : null,
        cancelledByShopper:
          order.status === 'payment_failed' && (provider?.cancelledByShopper?.(order.payment_status ?? '') ?? false),
      };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
