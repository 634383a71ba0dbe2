import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { findOrderById, findOrderLines } from '../orders/orders.repository.ts';
import { orderConfirmationEmail, paymentFailedEmail } from './order-emails.ts';
import { eventSeen, recordEvent } from './payments.repository.ts';

/**
 * Every provider's notifications, returns and captures are applied through `once`
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

export type Decide = (trx: Kysely<Database>, at: string) => Promise<{ orderId: number | null; outcome: string }>;

export function createPaymentEvents(
  db: Kysely<Database>,
  options: {
    clock: () => Date;
    publicUrl: string;
    mailer?: Mailer;
    /** Told each event's provider and outcome once it is recorded, or 'duplicate' or 'error' (the metrics). */
    onApplied?: (provider: string, outcome: string) => void;
  },
) {
  /**
   * Queues the e-mail that tells the shopper what happened, in the transaction that records it
   * (docs/rules.md#mail): the mail and the payment commit together or not at all, so a process
   * that dies right after the commit has already queued it.
   */
  async function queueMail(trx: Kysely<Database>, orderId: number | null, outcome: string): Promise<boolean> {
    if (!options.mailer || orderId === null || !['paid', 'paid late', 'failed'].includes(outcome)) return false;
    const order = await findOrderById(trx, orderId);
    const message =
      outcome === 'failed'
        ? paymentFailedEmail(order, options.publicUrl)
        : orderConfirmationEmail(order, await findOrderLines(trx, orderId));
    await options.mailer.sendWith(trx, message);
    return true;
  }

  return {
    /**
     * Records the event and applies its result in one transaction. `decide` runs inside it and
     * answers the outcome to record. A second event with the same key changes nothing and
     * answers 'duplicate'.
     */
    async once(event: PaymentEvent, decide: Decide): Promise<string> {
      const outcome = await applyOnce(event, decide).catch((error: unknown) => {
        options.onApplied?.(event.provider, 'error');
        throw error;
      });
      options.onApplied?.(event.provider, outcome);
      return outcome;
    },
  };

  async function applyOnce(event: PaymentEvent, decide: Decide): Promise<string> {
    const at = options.clock().toISOString();
    try {
      const result = await db.transaction().execute(async (trx) => {
        if (await eventSeen(trx, event.key)) throw new Duplicate();
        const decided = await decide(trx, at);
        await recordEvent(trx, { ...event, ...decided, at });
        return { ...decided, mailed: await queueMail(trx, decided.orderId, decided.outcome) };
      });
      if (result.mailed) options.mailer?.wake();
      return result.outcome;
    } catch (error) {
      // Two copies at the same moment: the second loses the race on the unique key.
      if (error instanceof Duplicate || (await eventSeen(db, event.key))) return 'duplicate';
      throw error;
    }
  }
}

export type PaymentEvents = ReturnType<typeof createPaymentEvents>;
