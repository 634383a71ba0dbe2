import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RefundInput } from '../../contract/admin/orders.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database } from '../db/schema.ts';
import { RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  recordRefund,
  recordRestockWithoutRefund,
  refundThroughProvider,
  settleUnconfirmedRefund,
  type RefundingProvider,
  type RefundRefusal,
  type Restock,
} from './order-lifecycle.ts';
import { findUnconfirmedRefundRequests } from './order-refunds.repository.ts';
import { releasedRefundFollowUp, type ReleasedRefundsOptions } from './released-refunds.ts';
import {
  auditedState,
  orderOrThrow,
  refuseChange,
  staffChange,
  type Order,
  type StaffChangeContext,
} from './order-staff-change.ts';

/**
 * Staff refunds (docs/back-office.md#orders), by the lifecycle's one refund workflow: through the
 * provider that took the payment where it can refund (ADR 0013), else a refund made outside the
 * shop, recorded; and the sweep that settles refunds a provider never confirmed.
 */

/** How old a refund the provider never confirmed must be before it is asked about again. */
const UNCONFIRMED_REFUND_MINUTES = 10;
/** How many of those the sweep reads at once. */
const UNCONFIRMED_REFUNDS_BATCH = 100;

const refusals: Record<RefundRefusal, string> = {
  'not refundable': 'Only a paid order can be refunded.',
  'more than paid': 'That is more than is left to refund on this order.',
  'already sent': 'Those units have been dispatched meanwhile.',
  'no such line': 'A line to restock is not on this order.',
  'more than sold': 'That puts back more units of a line than were sold.',
  'not held':
    'This order’s units were never taken from stock (it was paid after they had gone to another order), so there is nothing to put back. Record the refund without restocking.',
};

/**
 * A refund the provider did not confirm: its amount stays reserved until the provider reports it or
 * the sweep learns what became of it. Staff are told as for a refusal (409), but it may have been
 * made, so whatever waited on the refund (a return's claim) must not be given back for it.
 */
export class RefundUnconfirmedError extends RefusedError {
  constructor() {
    super(
      409,
      errorCodes.conflict,
      'The provider did not confirm the refund. The amount stays reserved until it reports the refund; check its activity before trying again.',
    );
    this.name = 'RefundUnconfirmedError';
  }
}

/**
 * What a refund is for, taken with it: a return is claimed in the transaction that reserves (or
 * records) its refund, so it is refunded once or not at all, and given back in the one that
 * releases a refund the provider refused. The request's id names it, for the sweep
 * (released-refunds.ts) to give it back when it learns the refund was never made.
 */
export interface RefundClaim {
  requestId: string;
  /** Throws to refuse (someone else took it). */
  claim: (trx: Kysely<Database>, at: string) => Promise<void>;
  unclaim: (trx: Kysely<Database>) => Promise<void>;
}
type ProviderThatRefunds = Required<Pick<RefundingProvider, 'refund'>> & RefundingProvider;

export function createOrderRefunds(
  context: StaffChangeContext,
  options: {
    /** The provider that took an order's payment, to refund through it where it can (ADR 0013). */
    providerOf?: (id: string | null) => RefundingProvider | undefined;
    /** Told of each order staff refunded, once it committed (the metrics). */
    onOrderEvent?: (event: 'refunded') => void;
    /** What the sweep needs to give back what waited on a refund never made (released-refunds.ts). */
    releasedRefunds?: ReleasedRefundsOptions;
  },
) {
  const { db, now } = context;

  /** The provider an order's refund goes through, if it can make one for this order. */
  function refunder(order: Pick<Order, 'payment_provider' | 'transaction_id'>): ProviderThatRefunds | undefined {
    const provider = options.providerOf?.(order.payment_provider);
    return provider?.refund && (provider.canRefund?.(order) ?? true) ? (provider as ProviderThatRefunds) : undefined;
  }

  /**
   * A refund through the provider (ADR 0013), by the lifecycle's refund workflow: the amount
   * reserved and the units held, the provider asked, then the refund settled (with its audit entry)
   * or, refused, released. When the provider does not answer, the amount stays reserved until it
   * reports the refund or the sweep learns what became of it.
   */
  async function refundThrough(
    provider: ProviderThatRefunds,
    order: Order,
    refund: { amount: number; reason: string; restock: Restock },
    staff: Staff,
    claim: RefundClaim | undefined,
  ): Promise<void> {
    const answer = await refundThroughProvider(
      db,
      provider,
      {
        orderId: order.id,
        amount: refund.amount,
        requestId: claim?.requestId ?? `refund-${randomUUID()}`,
        note: refund.reason,
        restock: refund.restock,
      },
      {
        now,
        ...(claim ? { claim: claim.claim, unclaim: claim.unclaim } : {}),
        // The refund was made: from here on the answer says so, whatever else happens.
        onRefunded: (trx, current, at, reference) =>
          recordAudit(trx, {
            staff,
            action: 'order.refund',
            entityType: 'order',
            entityId: current.order_number,
            // `current` is read after the refund settled: its total before is that less this refund
            // (the settle took the order's row, so no other refund landed in between).
            before: { ...auditedState(current), refundedTotal: current.refunded_total - refund.amount },
            after: {
              refundedTotal: current.refunded_total,
              amount: refund.amount,
              reason: refund.reason,
              restock: refund.restock,
              provider: provider.id,
              providerReference: reference,
            },
            at,
          }),
      },
    );
    if ('refused' in answer) refuseChange(refusals[answer.refused]);
    if (answer.outcome === 'refused')
      refuseChange(`The provider refused the refund (${answer.reason}); nothing was refunded.`);
    if (answer.outcome === 'unknown') throw new RefundUnconfirmedError();
  }

  function recordRefundMadeOutside(
    orderNumber: number,
    refund: RefundInput & { restock: Restock },
    staff: Staff,
    claim: RefundClaim | undefined,
  ): Promise<void> {
    const { restock } = refund;
    return staffChange(context, orderNumber, staff, 'order.refund', async (trx, order, at) => {
      await claim?.claim(trx, at);
      const result = await recordRefund(trx, order, { amount: refund.amount, note: refund.reason, restock }, at);
      if ('refused' in result) return { refused: refusals[result.refused] };
      return {
        after: {
          refundedTotal: order.refunded_total + (result.counted ? refund.amount : 0),
          amount: refund.amount,
          reason: refund.reason,
          restock,
        },
      };
    });
  }

  return {
    refunder,

    /**
     * A refund: through the provider that took the payment where it can refund (ADR 0013), else
     * a refund made outside the shop, recorded; either with an optional restock of chosen lines.
     */
    async refund(orderNumber: number, refund: RefundInput, staff: Staff, claim?: RefundClaim): Promise<void> {
      const restock = refund.restock ?? [];
      const order = await orderOrThrow(db, orderNumber);
      const provider = refunder(order);
      if (provider) await refundThrough(provider, order, { ...refund, restock }, staff, claim);
      else await recordRefundMadeOutside(orderNumber, { ...refund, restock }, staff, claim);
      options.onOrderEvent?.('refunded');
    },

    /**
     * Units back in stock with nothing refunded: a return whose deduction took all its goods'
     * price. No provider is asked, as no money moves; audited as the order's restock.
     */
    restockWithoutRefund(
      orderNumber: number,
      restock: { reason: string; units: Restock },
      staff: Staff,
      claim?: Pick<RefundClaim, 'claim'>,
    ): Promise<void> {
      return staffChange(context, orderNumber, staff, 'order.restock', async (trx, order, at) => {
        await claim?.claim(trx, at);
        const result = await recordRestockWithoutRefund(trx, order, { note: restock.reason, units: restock.units }, at);
        if ('refused' in result) return { refused: refusals[result.refused] };
        return { after: { reason: restock.reason, restock: restock.units } };
      });
    },

    /**
     * Refunds a provider never confirmed (no answer to the refund nor to the look-up after it), asked
     * again once they are ten minutes old, so no refund staff are waiting on is taken for a lost one:
     * one the provider made is recorded with its units put back; one it has no record of gives its
     * amount and units back (the refund workflow's settle and release). Providers that report their
     * refunds themselves are left to do so.
     */
    async settleUnconfirmedRefunds(): Promise<number> {
      const before = new Date(Date.parse(now()) - UNCONFIRMED_REFUND_MINUTES * 60_000).toISOString();
      let settled = 0;
      // Every one, a batch at a time: requests no look-up can settle (PayPal's wait for its webhook)
      // stay pending, and must not keep the ones after them from being looked at.
      let afterId = 0;
      for (;;) {
        const batch = await findUnconfirmedRefundRequests(db, before, afterId, UNCONFIRMED_REFUNDS_BATCH);
        for (const request of batch) {
          const released = options.releasedRefunds;
          const followUp = released ? await releasedRefundFollowUp(released, request) : undefined;
          if (await settleUnconfirmedRefund(db, options.providerOf?.(request.provider), request, now, followUp))
            settled += 1;
        }
        if (batch.length < UNCONFIRMED_REFUNDS_BATCH) return settled;
        afterId = batch.at(-1)!.id;
      }
    },
  };
}
