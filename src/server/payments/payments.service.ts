import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { penceToDecimal } from '../../contract/money.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError, UpstreamUnavailableError } from '../errors.ts';
import { sameSecret } from '../http/same-secret.ts';
import type { Mailer } from '../mail/mailer.ts';
import { holdsReservation, markOrderPaid, markPaymentFailed } from '../orders/order-lifecycle.ts';
import {
  moveRefundedTotal,
  findOrderByCode,
  findOrderById,
  findOrderByNumber,
  findOrderLines,
  setProviderStatus,
  transactionUsedByOtherOrder,
  type OrderRow,
} from '../orders/orders.repository.ts';
import { orderConfirmationEmail, paymentFailedEmail } from './order-emails.ts';
import { openCrypt } from './opayo-crypt.ts';
import {
  newVendorTxCode,
  opayoEndpoint,
  opayoRequestCrypt,
  opayoRequestFields,
  orderNumberOf,
  readOpayoResponse,
} from './opayo.ts';
import { eventSeen, pruneEvents, recordEvent, recordRefund } from './payments.repository.ts';
import { decimalToPence, ipnProblem, paypalCartFields, paypalUrls, refundProblem, refundStatuses } from './paypal.ts';

/**
 * Payments behind one interface (docs/rules.md#payments). An order is marked paid only by the
 * provider's own confirmation: PayPal's verified IPN, or Opayo's encrypted return. Every
 * notification is recorded once; a repeat is recognised by its key and changes nothing.
 */

type Fetch = typeof fetch;

/**
 * Anyone can post to the IPN listener. What is kept of a notification PayPal did not verify is
 * bounded (docs/rules.md#payments; 300 junk posts once added 6 MB): its first characters, and only the latest.
 */
export const MAX_UNVERIFIED_NOTIFICATIONS_KEPT = 500;
export const UNVERIFIED_BODY_CHARS_KEPT = 1000;
const UNVERIFIED_KEY_PREFIX = 'paypal:unverified:';

class Duplicate extends Error {}

export function createPaymentsService(
  db: Kysely<Database>,
  config: Pick<Config, 'paymentProvider' | 'paypal' | 'opayo' | 'publicUrl' | 'shop'>,
  options: { fetch?: Fetch; clock?: () => Date; mailer?: Mailer; log?: (error: unknown) => void } = {},
) {
  const fetchFn = options.fetch ?? fetch;
  const clock = options.clock ?? (() => new Date());
  const urls = paypalUrls(config.paypal.mode, config.publicUrl);

  /**
   * Records the event and applies its result in one transaction. `decide` runs inside it and
   * answers the outcome to record. A second event with the same key changes nothing.
   */
  async function once(
    event: { key: string; provider: string; providerStatus: string; body: string },
    decide: (trx: Kysely<Database>, at: string) => Promise<{ orderId: number | null; outcome: string }>,
  ): Promise<string> {
    const at = clock().toISOString();
    try {
      const result = await db.transaction().execute(async (trx) => {
        if (await eventSeen(trx, event.key)) throw new Duplicate();
        const decided = await decide(trx, at);
        await recordEvent(trx, { ...event, ...decided, at });
        return decided;
      });
      await notify(result.orderId, result.outcome);
      return result.outcome;
    } catch (error) {
      // Two copies at the same moment: the second loses the race on the unique key.
      if (error instanceof Duplicate || (await eventSeen(db, event.key))) return 'duplicate';
      throw error;
    }
  }

  /**
   * Tells the shopper what happened, after the result is safely recorded. A mail that cannot be
   * sent is logged; it never undoes or blocks the payment.
   */
  async function notify(orderId: number | null, outcome: string): Promise<void> {
    if (!options.mailer || orderId === null || !['paid', 'paid late', 'failed'].includes(outcome)) return;
    try {
      const order = await findOrderById(db, orderId);
      const message =
        outcome === 'failed'
          ? paymentFailedEmail(order, config.publicUrl)
          : orderConfirmationEmail(order, await findOrderLines(db, orderId));
      await options.mailer.send(message);
    } catch (error) {
      options.log?.(error);
    }
  }

  /** PayPal's verdict on a notification, from posting it back byte for byte (docs/rules.md#payments). */
  async function askPaypal(rawBody: string): Promise<string> {
    try {
      const response = await fetchFn(urls.validate, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'raag-shop-ipn' },
        body: `cmd=_notify-validate&${rawBody}`,
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw new Error(`validation answered ${response.status}`);
      return (await response.text()).trim();
    } catch (error) {
      // Not answered: PayPal sends the IPN again later, so nothing is lost by refusing it now.
      throw new UpstreamUnavailableError(`PayPal IPN validation failed: ${(error as Error).message}`);
    }
  }

  /**
   * The fields of a return's Crypt, or undefined for one that does not decrypt or read strictly.
   * The text is read whether or not its padding was right, so both take the same steps (ADR 0008).
   */
  function readOpayoReturn(crypt: string): Record<string, string> | undefined {
    const { text, paddingValid } = openCrypt(crypt, config.opayo.encryptionPassword);
    const fields = readOpayoResponse(text);
    return paddingValid ? fields : undefined;
  }

  return {
    /** GET /api/payment-provider: which one this shop uses. */
    provider(): string {
      return config.paymentProvider;
    },

    /** GET /api/paypal-config (the wallet provider's config; docs/rules.md#payments). */
    paypalConfig() {
      return {
        url: urls.webscr,
        business: config.paypal.businessEmail,
        notifyUrl: `${config.publicUrl}/api/payments/paypal/ipn`,
        returnUrl: `${config.publicUrl}/checkout-confirm`,
        cancelUrl: `${config.publicUrl}/payment-declined`,
      };
    },

    /** The whole PayPal form for an order awaiting payment, built from the order alone. */
    async paypalHandoff(orderCode: string) {
      const order = await findOrderByCode(db, orderCode);
      if (!order || !holdsReservation(order, clock()))
        throw new NotFoundError('No order awaiting payment has that code');
      const lines = await findOrderLines(db, order.id);
      const fields = paypalCartFields(order, lines, {
        business: config.paypal.businessEmail,
        publicUrl: config.publicUrl,
      });
      return { url: urls.webscr, fields: fields.map(([name, value]) => ({ name, value })) };
    },

    /** GET /api/sagepay-config/{orderNumber}: the Form post for an order awaiting payment. */
    async sagepayConfig(orderNumber: number, orderCode: string) {
      const order = await findOrderByNumber(db, orderNumber);
      if (!order || !sameSecret(order.order_code, orderCode) || !holdsReservation(order, clock()))
        throw new NotFoundError('No order awaiting payment has that number');
      const fields = opayoRequestFields(order, {
        vendorTxCode: newVendorTxCode(order.order_number),
        publicUrl: config.publicUrl,
        shopName: config.shop.name,
      });
      return {
        vendor: config.opayo.vendor,
        txType: 'PAYMENT',
        vpsProtocol: '4.00',
        crypt: opayoRequestCrypt(fields, config.opayo.encryptionPassword),
        endpointUrl: opayoEndpoint(config.opayo.mode, config.publicUrl),
      };
    },

    /**
     * A PayPal IPN. The raw body goes back to PayPal byte for byte; only VERIFIED, Completed, our
     * receiver, the order's amount and currency, and an unused transaction id mark it paid.
     */
    async handlePaypalIpn(rawBody: string): Promise<string> {
      const ipn = Object.fromEntries(new URLSearchParams(rawBody));
      // Only a notification about one of the shop's orders is worth asking PayPal about: anyone can
      // post here, and each question is a request the shop makes on their behalf.
      const invoice = ipn.invoice ?? '';
      const named = /^\d{1,10}$/.test(invoice) ? await findOrderByNumber(db, Number(invoice)) : undefined;
      const verdict = named ? await askPaypal(rawBody) : 'NOT ASKED';
      const status = ipn.payment_status ?? '';
      const verified = verdict === 'VERIFIED' && Boolean(ipn.txn_id);
      const key = verified
        ? `paypal:${ipn.txn_id}:${status}`
        : `${UNVERIFIED_KEY_PREFIX}${createHash('sha256').update(rawBody).digest('hex')}`;
      const body = verified ? rawBody : rawBody.slice(0, UNVERIFIED_BODY_CHARS_KEPT);
      const outcome = await once(
        { key, provider: 'paypal', providerStatus: status || 'none', body },
        async (trx, at) => {
          if (!named) return { orderId: null, outcome: 'rejected: names no order' };
          if (verdict !== 'VERIFIED')
            return { orderId: null, outcome: `rejected: ${verdict.slice(0, 20) || 'no verdict'}` };
          const orderNumber = Number(ipn.invoice);
          const order = Number.isInteger(orderNumber) ? await findOrderByNumber(trx, orderNumber) : undefined;
          if (order && Object.hasOwn(refundStatuses, status)) {
            const kind = refundStatuses[status as keyof typeof refundStatuses];
            const refundIssue = refundProblem(ipn, kind, order, config.paypal.businessEmail);
            if (refundIssue) return { orderId: order.id, outcome: `rejected: ${refundIssue}` };
            const amount = Math.abs(decimalToPence(ipn.mc_gross) as number);
            await recordRefund(trx, {
              orderId: order.id,
              kind,
              amount,
              provider: 'paypal',
              reference: ipn.txn_id ?? '',
              at,
            });
            await moveRefundedTotal(trx, order.id, kind === 'reversal_cancelled' ? -amount : amount, at);
            await setProviderStatus(trx, order.id, 'paypal', status, at);
            return { orderId: order.id, outcome: `recorded ${kind}` };
          }
          const problem = ipnProblem(ipn, order, config.paypal.businessEmail);
          if (problem || !order) return { orderId: order?.id ?? null, outcome: `rejected: ${problem}` };
          if (status === 'Completed') {
            if (await transactionUsedByOtherOrder(trx, ipn.txn_id ?? '', order.id)) {
              return { orderId: order.id, outcome: 'rejected: transaction id already used' };
            }
            const outcome = await markOrderPaid(
              trx,
              order,
              { provider: 'paypal', providerStatus: status, transactionId: ipn.txn_id ?? '' },
              at,
            );
            return { orderId: order.id, outcome };
          }
          if (['Failed', 'Denied', 'Expired', 'Voided'].includes(status)) {
            // Only an order still awaiting its payment fails; a late failure for a paid one is noted only.
            const failed = await markPaymentFailed(trx, order.id, { provider: 'paypal', providerStatus: status }, at);
            return { orderId: order.id, outcome: failed ? 'failed' : `ignored ${status}: order is ${order.status}` };
          }
          // Pending, Refunded, Reversed and the rest are recorded; none of them marks the order paid.
          await setProviderStatus(trx, order.id, 'paypal', status, at);
          return { orderId: order.id, outcome: `recorded ${status}` };
        },
      );
      if (!verified) await pruneEvents(db, UNVERIFIED_KEY_PREFIX, MAX_UNVERIFIED_NOTIFICATIONS_KEPT);
      return outcome;
    },

    /**
     * The shopper's return from Opayo (SuccessURL or FailureURL). There is no server-to-server
     * call, so this return is the result, and must be idempotent. Answers what became of it, for
     * the log only: the shopper (or anyone else) gets the same answer whatever the Crypt held,
     * since a different answer for a Crypt that does not decrypt is a padding oracle that gives
     * away the encryption password (docs/decisions/0008-opayo-return-crypt.md).
     */
    async handleOpayoReturn(crypt: string): Promise<string> {
      const fields = readOpayoReturn(crypt);
      if (!fields) return 'rejected: unreadable';
      const orderNumber = orderNumberOf(fields.VendorTxCode ?? '');
      const order = orderNumber === undefined ? undefined : await findOrderByNumber(db, orderNumber);
      if (!order) return 'rejected: names no order';
      const status = fields.Status ?? '';
      const key = `opayo:${fields.VPSTxId || fields.VendorTxCode}:${status}`;
      return once(
        { key, provider: 'opayo', providerStatus: status || 'none', body: JSON.stringify(fields) },
        async (trx, at) => {
          if (fields.Amount !== penceToDecimal(order.total_including_delivery))
            return { orderId: order.id, outcome: 'rejected: wrong amount' };
          const current = (await findOrderByNumber(trx, order.order_number)) as OrderRow;
          if (status === 'OK') {
            const outcome = await markOrderPaid(
              trx,
              current,
              {
                provider: 'opayo',
                providerStatus: status,
                transactionId: fields.VPSTxId ?? '',
                authCode: fields.TxAuthNo ?? null,
              },
              at,
            );
            return { orderId: order.id, outcome };
          }
          const failed = await markPaymentFailed(
            trx,
            order.id,
            { provider: 'opayo', providerStatus: status, transactionId: fields.VPSTxId ?? null },
            at,
          );
          return { orderId: order.id, outcome: failed ? 'failed' : `ignored ${status}: order is ${current.status}` };
        },
      );
    },

    /** GET /api/order-status/{code}: what the confirmation page shows. */
    async orderStatus(code: string) {
      const order = await findOrderByCode(db, code);
      if (!order) throw new NotFoundError('No order has that code');
      return {
        orderNumber: order.order_number,
        status: order.status,
        provider: order.payment_provider,
        transactionId: order.status === 'paid' ? order.transaction_id : null,
      };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
