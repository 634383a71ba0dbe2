import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { findPaymentOrder, findPaymentOrderLines, type PaymentOrder } from '../orders/order-payments.ts';
import { linesWithPhotos, orderConfirmationEmail, paymentFailedEmail } from './order-emails.ts';
import { outcomeText, type Applied } from './payment-provider.ts';
import { eventSeen, recordEvent } from './payments.repository.ts';

/**
 * Every provider's events (notifications, returns, captures, refunds) are applied through `once`
 * (docs/rules.md#payments): the event is recorded under a unique key in the same transaction as
 * its effect, so a repeat, or two copies at the same moment, changes nothing.
 */

class Duplicate extends Error {}

export interface PaymentEvent {
  key: string;
  provider: string;
  providerStatus: string;
  body: string;
}

export type Decide = (trx: Kysely<Database>, at: string) => Promise<{ orderId: number | null; applied: Applied }>;

export function createPaymentEvents(
  db: Kysely<Database>,
  options: {
    clock: () => Date;
    publicUrl: string;
    mailer?: Mailer;
    /** The signed link to an order's VAT invoice, for its confirmation e-mail. */
    invoiceUrl?: (orderNumber: number, linkVersion: number) => string;
    /** Told each event's provider and outcome once it is recorded, or 'duplicate' or 'error' (the metrics). */
    onApplied?: (provider: string, outcome: string) => void;
  },
) {
  /**
   * Queues the e-mail that tells the shopper what happened, in the transaction that records it
   * (docs/rules.md#mail): the mail and the payment commit together or not at all, so a process
   * that dies right after the commit has already queued it.
   */
  async function queueMail(trx: Kysely<Database>, orderId: number | null, applied: Applied): Promise<boolean> {
    if (!options.mailer || orderId === null || !['paid', 'paid late', 'failed'].includes(applied.outcome)) return false;
    const order = (await findPaymentOrder(trx, { id: orderId })) as PaymentOrder;
    const message =
      applied.outcome === 'failed'
        ? paymentFailedEmail(order, options.publicUrl)
        : orderConfirmationEmail(
            order,
            await linesWithPhotos(trx, await findPaymentOrderLines(trx, orderId)),
            options.invoiceUrl?.(order.order_number, order.link_version),
          );
    await options.mailer.sendWith(trx, message);
    return true;
  }

  return {
    /**
     * Records the event and applies its result in one transaction. `decide` runs inside it and
     * answers what it did. A second event with the same key changes nothing and answers
     * 'duplicate'.
     */
    async once(event: PaymentEvent, decide: Decide): Promise<Applied> {
      const applied = await applyOnce(event, decide).catch((error: unknown) => {
        options.onApplied?.(event.provider, 'error');
        throw error;
      });
      options.onApplied?.(event.provider, outcomeText(applied));
      return applied;
    },
  };

  async function applyOnce(event: PaymentEvent, decide: Decide): Promise<Applied> {
    const at = options.clock().toISOString();
    try {
      const result = await db.transaction().execute(async (trx) => {
        if (await eventSeen(trx, event.key)) throw new Duplicate();
        const decided = await decide(trx, at);
        await recordEvent(trx, { ...event, orderId: decided.orderId, outcome: outcomeText(decided.applied), at });
        return { ...decided, mailed: await queueMail(trx, decided.orderId, decided.applied) };
      });
      if (result.mailed) options.mailer?.wake();
      return result.applied;
    } catch (error) {
      // Two copies at the same moment: the second loses the race on the unique key.
      if (error instanceof Duplicate || (await eventSeen(db, event.key))) return { outcome: 'duplicate' };
      throw error;
    }
  }
}

export type PaymentEvents = ReturnType<typeof createPaymentEvents>;
