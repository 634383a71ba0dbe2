import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderCodeParams } from '../../../../contract/basket.ts';
import { paymentHandoffSchema, paypalConfigSchema } from '../../../../contract/payments.ts';
import { NotFoundError, UpstreamUnavailableError } from '../../../errors.ts';
import { perMinute } from '../../../http/rate-limit/per-minute.ts';
import {
  holdsReservation,
  markOrderPaid,
  markPaymentFailed,
  refuseIfPaidFor,
} from '../../../orders/order-lifecycle.ts';
import {
  findOrderByCode,
  findOrderByNumber,
  findOrderLines,
  moveRefundedTotal,
  setProviderStatus,
  transactionUsedByOtherOrder,
} from '../../../orders/orders.repository.ts';
import { findUnreportedStaffRefund, markStaffRefundReported } from '../../../orders/orders.admin-repository.ts';
import { decimalToPence } from '../../../../contract/money.ts';
import type { PaymentProvider, ProviderContext } from '../../payment-provider.ts';
import { pruneEvents, recordRefund } from '../../payments.repository.ts';
import { ipnProblem, paypalCartFields, paypalUrls, refundProblem, refundStatuses } from '../../paypal.ts';
import { apiErrorSchema } from '../../../../contract/errors.ts';

/**
 * PayPal Payments Standard (docs/rules.md#payments): the spec's cart upload form, payment confirmed
 * only by an IPN PayPal itself verifies. Its protocol has no refund call: a refund is made in
 * PayPal and reported here by IPN. PayPal takes no new Standard integrations; PayPal Checkout
 * (../paypal-checkout) is the default.
 */

/**
 * Anyone can post to the IPN listener. What is kept of a notification PayPal did not verify is
 * bounded (docs/rules.md#payments; 300 junk posts once added 6 MB): its first characters, and only the latest.
 */
export const MAX_UNVERIFIED_NOTIFICATIONS_KEPT = 500;
export const UNVERIFIED_BODY_CHARS_KEPT = 1000;
const UNVERIFIED_KEY_PREFIX = 'paypal:unverified:';

export function paypalStandardProvider({
  db,
  dialect,
  config,
  fetch,
  clock,
  events,
  rateLimitFactor,
}: ProviderContext) {
  const urls = paypalUrls(config.paypal.mode, config.publicUrl);

  /** PayPal's verdict on a notification, from posting it back byte for byte (docs/rules.md#payments). */
  async function askPaypal(rawBody: string): Promise<string> {
    try {
      const response = await fetch(urls.validate, {
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

  /** The cart upload form for an order awaiting payment, built from the order alone. */
  async function cartForm(
    order: Parameters<PaymentProvider['handoff']>[0],
    lines: Parameters<PaymentProvider['handoff']>[1],
  ) {
    const fields = paypalCartFields(order, lines, {
      business: config.paypal.businessEmail,
      publicUrl: config.publicUrl,
    });
    return { url: urls.webscr, fields: fields.map(([name, value]) => ({ name, value })) };
  }

  /**
   * A PayPal IPN. The raw body goes back to PayPal byte for byte; only VERIFIED, Completed, our
   * receiver, the order's amount and currency, and an unused transaction id mark it paid.
   */
  async function handleIpn(rawBody: string): Promise<string> {
    const ipn = Object.fromEntries(new URLSearchParams(rawBody));
    // Only a notification shaped like one of the shop's (an invoice number, a transaction id) is
    // worth asking PayPal about: anyone can post here, and each question is a request the shop makes
    // on their behalf. Whether that order exists is read only once PayPal has vouched for it:
    // looking first made the answer (503 while PayPal was unreachable) and its time name the orders.
    const invoice = ipn.invoice ?? '';
    const shapedLikeOurs = /^\d{1,10}$/.test(invoice) && Boolean(ipn.txn_id);
    const verdict = shapedLikeOurs ? await askPaypal(rawBody) : 'NOT ASKED';
    const named = verdict === 'VERIFIED' ? await findOrderByNumber(db, Number(invoice)) : undefined;
    const status = ipn.payment_status ?? '';
    const verified = verdict === 'VERIFIED' && Boolean(ipn.txn_id);
    const key = verified
      ? `paypal:${ipn.txn_id}:${status}`
      : `${UNVERIFIED_KEY_PREFIX}${createHash('sha256').update(rawBody).digest('hex')}`;
    const body = verified ? rawBody : rawBody.slice(0, UNVERIFIED_BODY_CHARS_KEPT);
    const outcome = await events.once(
      { key, provider: 'paypal', providerStatus: status || 'none', body },
      async (trx, at) => {
        if (verdict !== 'VERIFIED')
          return { orderId: null, outcome: `rejected: ${verdict.slice(0, 20) || 'no verdict'}` };
        if (!named) return { orderId: null, outcome: 'rejected: names no order' };
        const orderNumber = Number(ipn.invoice);
        const order = Number.isInteger(orderNumber) ? await findOrderByNumber(trx, orderNumber) : undefined;
        if (order && Object.hasOwn(refundStatuses, status)) {
          const kind = refundStatuses[status as keyof typeof refundStatuses];
          const reported = Math.abs(decimalToPence(ipn.mc_gross) ?? 0);
          // Staff refund in PayPal's pages and record it; this IPN is the same refund, counted
          // already, so it is checked as if it were not and only named on staff's record.
          const recordedByStaff =
            kind === 'refund' && reported > 0 ? await findUnreportedStaffRefund(trx, order.id, reported) : undefined;
          const refundIssue = refundProblem(
            ipn,
            kind,
            recordedByStaff === undefined ? order : { ...order, refunded_total: order.refunded_total - reported },
            config.paypal.businessEmail,
          );
          if (refundIssue) return { orderId: order.id, outcome: `rejected: ${refundIssue}` };
          if (
            recordedByStaff !== undefined &&
            (await markStaffRefundReported(trx, recordedByStaff, { provider: 'paypal', reference: ipn.txn_id ?? '' }))
          ) {
            await setProviderStatus(trx, order.id, 'paypal', status, at);
            return { orderId: order.id, outcome: 'recorded refund staff had recorded' };
          }
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
            dialect,
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
  }

  const routes: FastifyPluginAsyncZod = async (app) => {
    // PayPal's IPN must be posted back byte for byte, so form bodies reach this plugin unparsed.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, body),
    );

    // The spec's calls: the wallet's settings, and the whole form for an order.
    app.get('/api/paypal-config', { schema: { response: { 200: paypalConfigSchema } } }, () => ({
      url: urls.webscr,
      business: config.paypal.businessEmail,
      notifyUrl: `${config.publicUrl}/api/payments/paypal/ipn`,
      returnUrl: `${config.publicUrl}/checkout-confirm`,
      cancelUrl: `${config.publicUrl}/payment-declined`,
    }));
    app.get(
      '/api/paypal-handoff/:code',
      { schema: { params: orderCodeParams, response: { 200: paymentHandoffSchema, 409: apiErrorSchema } } },
      async (request) => {
        const order = await findOrderByCode(db, request.params.code);
        if (!order || !holdsReservation(order, clock()))
          throw new NotFoundError('No order awaiting payment has that code');
        await refuseIfPaidFor(db, order);
        return cartForm(order, await findOrderLines(db, order.id));
      },
    );

    // PayPal posts from a few addresses and sends again later what was refused, so a limit per client
    // loses nothing; it stops one client making the shop post junk to PayPal and store it.
    app.post('/api/payments/paypal/ipn', perMinute(120, rateLimitFactor), async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      await handleIpn(body);
      // PayPal wants an empty 200 for every IPN it delivered, whatever we made of it.
      return reply.status(200).send('');
    });
  };

  return {
    id: 'paypal',
    async handoff(order, lines) {
      return { kind: 'form', ...(await cartForm(order, lines)) };
    },
    routes,
  } satisfies PaymentProvider;
}
