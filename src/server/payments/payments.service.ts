import type { Kysely } from 'kysely';
import type { OrderStatusAnswer, PaymentHandoffAnswer } from '../../contract/payments.ts';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { holdsReservation, refuseIfPaidFor } from '../orders/order-lifecycle.ts';
import { findOrderByCode, findOrderLines } from '../orders/orders.repository.ts';
import { createPaymentEvents } from './payment-events.ts';
import type { PaymentProvider, PaymentsConfig } from './payment-provider.ts';
import { providerFactories, startingProvider, type ProviderId } from './providers.ts';

/**
 * Payments behind one interface (docs/rules.md#payments; docs/decisions/0013-payment-providers.md).
 * Each provider (providers/) starts its handoff, answers its own callbacks and, where its protocol
 * allows, refunds; this service chooses the one that starts new handoffs and answers what the
 * shop's pages ask of any of them. An order is marked paid only by the provider's own
 * confirmation, and every notification is applied once (payment-events.ts).
 */

// The IPN listener's bounds live with PayPal Standard; its tests read them here.
export {
  MAX_UNVERIFIED_NOTIFICATIONS_KEPT,
  UNVERIFIED_BODY_CHARS_KEPT,
} from './providers/paypal-standard/paypal-standard.provider.ts';

export function createPaymentsService(
  db: Kysely<Database>,
  config: PaymentsConfig,
  options: {
    /** Which database it is: a late payment takes its stock again as that one needs. */
    dialect: Dialect;
    fetch?: typeof fetch;
    clock?: () => Date;
    mailer?: Mailer;
    rateLimitFactor?: number;
    /** Told of each notification, return or capture applied: its provider and outcome (the metrics). */
    onNotification?: (provider: string, outcome: string) => void;
  },
) {
  const clock = options.clock ?? (() => new Date());
  const events = createPaymentEvents(db, {
    clock,
    publicUrl: config.publicUrl,
    ...(options.onNotification ? { onApplied: options.onNotification } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  const context = {
    db,
    dialect: options.dialect,
    config,
    fetch: options.fetch ?? fetch,
    clock,
    events,
    rateLimitFactor: options.rateLimitFactor ?? 1,
  };
  // Only the providers the shop has settings for (config.livePaymentProviders): the others' routes
  // are not there, and their orders are refunded outside the shop.
  const providers = Object.fromEntries(
    config.livePaymentProviders.map((id) => [id, providerFactories[id](context)]),
  ) as Partial<Record<ProviderId, PaymentProvider>>;
  const starting = providers[startingProvider(config)];
  if (!starting) throw new Error(`the payment provider ${startingProvider(config)} has no settings`);

  return {
    /** Every live provider, each with its callbacks, whichever starts new handoffs. */
    providers: Object.values(providers),

    /** The provider that paid an order (its payment_provider), if the shop still speaks to it. */
    providerOf(id: string | null): PaymentProvider | undefined {
      return id !== null && Object.hasOwn(providers, id) ? providers[id as ProviderId] : undefined;
    },

    /** GET /api/payment-provider: which kind of provider this shop uses. */
    provider(): string {
      return config.paymentProvider;
    },

    /** GET /api/payment-handoff/{code}: where the browser goes to pay for an order awaiting payment. */
    async handoff(orderCode: string): Promise<PaymentHandoffAnswer> {
      const order = await findOrderByCode(db, orderCode);
      if (!order || !holdsReservation(order, clock()))
        throw new NotFoundError('No order awaiting payment has that code');
      await refuseIfPaidFor(db, order);
      return starting.handoff(order, await findOrderLines(db, order.id));
    },

    /** GET /api/order-status/{code}: what the confirmation page shows. */
    async orderStatus(code: string): Promise<OrderStatusAnswer> {
      const order = await findOrderByCode(db, code);
      if (!order) throw new NotFoundError('No order has that code');
      const provider = this.providerOf(order.payment_provider);
      return {
        orderNumber: order.order_number,
        status: order.status,
        provider: order.payment_provider,
        transactionId: order.status === 'paid' ? order.transaction_id : null,
        cancelledByShopper:
          order.status === 'payment_failed' && (provider?.cancelledByShopper?.(order.payment_status ?? '') ?? false),
      };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
