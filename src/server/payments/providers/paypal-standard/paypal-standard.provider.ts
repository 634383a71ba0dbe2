import { createHash } from 'node:crypto';
import { orderCodeParams } from '../../../../contract/basket.ts';
import { paymentHandoffSchema, paypalConfigSchema } from '../../../../contract/payments.ts';
import { UpstreamUnavailableError } from '../../../errors.ts';
import { decimalToPence, penceToDecimal } from '../../../../contract/money.ts';
import type { AdapterContext, PaymentProvider, ProviderEvent, ProviderRoute } from '../../payment-provider.ts';
import { paypalCartFields, paypalUrls, refundStatuses } from '../../paypal.ts';
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

export function paypalStandardProvider({ config, fetch, payments }: AdapterContext) {
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
  function cartForm(
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
   * A PayPal IPN as an event. The raw body goes back to PayPal byte for byte; only VERIFIED, our
   * receiver and a transaction id make it one, and then the service checks the order's amount and
   * currency (or, for a refund, the payment it names and what is left to refund).
   */
  async function handleIpn(rawBody: string): Promise<void> {
    const ipn = Object.fromEntries(new URLSearchParams(rawBody));
    // Only a notification shaped like one of the shop's (an invoice number, a transaction id) is
    // worth asking PayPal about: anyone can post here, and each question is a request the shop makes
    // on their behalf. Whether that order exists is read only once PayPal has vouched for it:
    // looking first made the answer (503 while PayPal was unreachable) and its time name the orders.
    const invoice = ipn.invoice ?? '';
    const shapedLikeOurs = /^\d{1,10}$/.test(invoice) && Boolean(ipn.txn_id);
    const verdict = shapedLikeOurs ? await askPaypal(rawBody) : 'NOT ASKED';
    const orderNumber = Number(invoice);
    const named = verdict === 'VERIFIED' && (await payments.knowsOrder(orderNumber));
    const status = ipn.payment_status ?? '';
    const verified = verdict === 'VERIFIED' && Boolean(ipn.txn_id);
    const key = verified
      ? `paypal:${ipn.txn_id}:${status}`
      : `${UNVERIFIED_KEY_PREFIX}${createHash('sha256').update(rawBody).digest('hex')}`;
    const received = {
      key,
      providerStatus: status,
      body: verified ? rawBody : rawBody.slice(0, UNVERIFIED_BODY_CHARS_KEPT),
    };
    const rejected = (reason: string, about?: number): ProviderEvent => ({
      ...received,
      type: 'rejected',
      reason,
      ...(about !== undefined ? { orderNumber: about } : {}),
    });
    await payments.apply(
      verdict !== 'VERIFIED'
        ? rejected(verdict.slice(0, 20) || 'no verdict')
        : !named
          ? rejected('names no order')
          : (ipn.receiver_email ?? '').toLowerCase() !== config.paypal.businessEmail.toLowerCase()
            ? rejected('wrong receiver', orderNumber)
            : eventOf(ipn, orderNumber, received),
    );
    if (!verified) await payments.pruneEvents(UNVERIFIED_KEY_PREFIX, MAX_UNVERIFIED_NOTIFICATIONS_KEPT);
  }

  /** A verified IPN to us, for one of our orders, as the event its payment_status makes it. */
  function eventOf(
    ipn: Record<string, string>,
    orderNumber: number,
    received: { key: string; providerStatus: string; body: string },
  ): ProviderEvent {
    const status = ipn.payment_status ?? '';
    const currency = ipn.mc_currency ?? '';
    const gross = decimalToPence(ipn.mc_gross);
    if (Object.hasOwn(refundStatuses, status)) {
      // Money out (a refund, a reversal) is reported as a negative mc_gross; money back in (a
      // cancelled reversal) as a positive one.
      const kind = refundStatuses[status as keyof typeof refundStatuses];
      const rightWay = gross !== undefined && gross !== 0 && (kind === 'reversal_cancelled') === gross > 0;
      if (!rightWay) return { ...received, type: 'rejected', orderNumber, reason: 'wrong amount' };
      return {
        ...received,
        type: kind === 'refund' ? 'refunded' : kind === 'reversal' ? 'reversed' : 'reversal-cancelled',
        orderNumber,
        amount: Math.abs(gross),
        currency,
        reference: ipn.txn_id ?? '',
        paymentReference: ipn.parent_txn_id ?? '',
      };
    }
    // PayPal's figure as it wrote it: "34.95" is the order's amount, "34.950" is not.
    const money = {
      orderNumber,
      amount: gross !== undefined && penceToDecimal(gross) === ipn.mc_gross ? gross : undefined,
      currency,
    };
    if (status === 'Completed') return { ...received, ...money, type: 'captured', reference: ipn.txn_id ?? '' };
    if (['Failed', 'Denied', 'Expired', 'Voided'].includes(status)) return { ...received, ...money, type: 'failed' };
    // Pending and the rest are recorded; none of them marks the order paid.
    return { ...received, ...money, type: 'pending' };
  }

  const routes: ProviderRoute[] = [
    // The spec's calls: the wallet's settings, and the whole form for an order.
    {
      method: 'GET',
      url: '/api/paypal-config',
      schema: { response: { 200: paypalConfigSchema } },
      handle: async () => ({
        kind: 'json',
        body: {
          url: urls.webscr,
          business: config.paypal.businessEmail,
          notifyUrl: `${config.publicUrl}/api/payments/paypal/ipn`,
          returnUrl: `${config.publicUrl}/checkout-confirm`,
          cancelUrl: `${config.publicUrl}/payment-declined`,
        },
      }),
    },
    {
      method: 'GET',
      url: '/api/paypal-handoff/:code',
      schema: { params: orderCodeParams, response: { 200: paymentHandoffSchema, 409: apiErrorSchema } },
      async handle(request) {
        const { code } = request.params as { code: string };
        const { order, lines } = await payments.awaitingPayment({ code });
        return { kind: 'json', body: cartForm(order, lines) };
      },
    },
    // PayPal posts from a few addresses and sends again later what was refused, so a limit per client
    // loses nothing; it stops one client making the shop post junk to PayPal and store it.
    {
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      body: 'raw-form',
      perMinute: 120,
      async handle(request) {
        await handleIpn(typeof request.body === 'string' ? request.body : '');
        // PayPal wants an empty 200 for every IPN it delivered, whatever we made of it.
        return { kind: 'empty' };
      },
    },
  ];

  return {
    id: 'paypal',
    async handoff(order, lines) {
      return { kind: 'form', ...cartForm(order, lines) };
    },
    routes,
  } satisfies PaymentProvider;
}
