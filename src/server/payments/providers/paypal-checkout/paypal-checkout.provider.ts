import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { penceToDecimal } from '../../../../contract/money.ts';
import { UpstreamUnavailableError } from '../../../errors.ts';
import {
  outcomeText,
  type AdapterContext,
  type Applied,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderRefundResult,
  type ProviderRoute,
  type RefundEvent,
} from '../../payment-provider.ts';
import {
  approveLinkOf,
  captureOf,
  checkoutOrderRequest,
  readMoneyResource,
  type MoneyResource,
} from './paypal-checkout-order.ts';
import { paypalApiBase, paypalRestClient, PaypalUnreachable } from './paypal-rest.ts';

/**
 * PayPal Checkout, Orders v2 (docs/rules.md#payments; ADR 0013). The order is created
 * on the server and the shopper sent to PayPal's approve link; on their return the shop captures it
 * (once: a PayPal-Request-Id makes a retry safe) and records the capture id. Webhooks are believed
 * only after PayPal's verify-webhook-signature answers SUCCESS. The return, the webhook and staff
 * refunds each turn a capture or a refund into an event under one key, which the payments service
 * applies (ADR 0025), so whichever comes first applies it and the others change nothing.
 */

export const PROVIDER_ID = 'paypal-checkout';
export const RETURN_PATH = '/api/payments/paypal-checkout/return';
export const WEBHOOK_PATH = '/webhooks/paypal';

const returnQuery = z.object({ token: z.string().max(64).optional(), PayerID: z.string().max(64).optional() });

export function paypalCheckoutProvider({ config, shopName, fetch, clock, payments }: AdapterContext) {
  const api = paypalRestClient({
    base: paypalApiBase(config.paypal.mode, config.publicUrl),
    clientId: config.paypalCheckout.clientId,
    clientSecret: config.paypalCheckout.clientSecret,
    fetch,
    clock,
  });

  /** An answer PayPal gave, or UpstreamUnavailableError (a 503: try again later). */
  async function ask<T>(question: () => Promise<T>): Promise<T> {
    try {
      return await question();
    } catch (error) {
      if (error instanceof PaypalUnreachable) throw new UpstreamUnavailableError(error.message);
      throw error;
    }
  }

  /**
   * A capture PayPal reported (the capture's answer, or a verified webhook) as an event, applied
   * once per capture id and status. It pays only the order whose PayPal order it belongs to, with
   * the order's number as invoice (the service checks the amount and currency).
   */
  async function applyCapture(orderNumber: number, capture: MoneyResource, source: string): Promise<Applied> {
    const received = {
      key: `${PROVIDER_ID}:capture:${capture.id}:${capture.status}`,
      providerStatus: capture.status,
      body: JSON.stringify({ source, ...capture }),
    };
    const rejected = (reason: string): ProviderEvent => ({ ...received, type: 'rejected', orderNumber, reason });
    const money = { orderNumber, amount: capture.pence, currency: capture.currency };
    const event: ProviderEvent =
      (await payments.orderNumberOfCheckout(capture.parentId)) !== orderNumber
        ? rejected("not this order's PayPal order")
        : capture.invoiceId !== String(orderNumber)
          ? rejected('wrong invoice')
          : capture.status === 'COMPLETED'
            ? { ...received, ...money, type: 'captured', reference: capture.id }
            : capture.status === 'DECLINED' || capture.status === 'FAILED'
              ? { ...received, ...money, type: 'failed', reference: capture.id }
              : { ...received, ...money, type: 'pending' };
    return payments.apply(event);
  }

  /**
   * A refund or reversal of an order's capture as an event, applied once per PayPal refund id: by
   * staff's refund call when PayPal answers it, or by the webhook that follows, whichever is first.
   * Its custom_id names our refund request, when staff asked for it.
   */
  function refundEvent(
    orderNumber: number,
    refund: MoneyResource,
    kind: 'refund' | 'reversal',
    source: string,
  ): RefundEvent {
    // A refund PayPal has not completed (PENDING: it cannot send the money yet) is noted under a
    // key of its own, so the report of the same refund id completing later is applied, not taken
    // for a repeat; a completed refund or a reversal is counted once per refund id.
    const settled = kind === 'reversal' || refund.status === 'COMPLETED';
    return {
      key: `${PROVIDER_ID}:refund:${refund.id}${settled ? '' : `:${refund.status || 'none'}`}`,
      providerStatus: refund.status,
      body: JSON.stringify({ source, kind, ...refund }),
      type: kind === 'reversal' ? 'reversed' : settled ? 'refunded' : 'refund-pending',
      orderNumber,
      amount: refund.pence,
      currency: refund.currency,
      reference: refund.id,
      paymentReference: refund.parentId,
      ...(refund.customId ? { requestId: refund.customId } : {}),
    };
  }

  /** The shopper's return: capture the order PayPal names, if it is one of ours. For the log only. */
  async function handleReturn(token: string | undefined): Promise<string> {
    if (!token || !/^[A-Za-z0-9-]{1,64}$/.test(token)) return 'rejected: no token';
    // One capture per order: of two PayPal orders for it (two handoffs, both approved) coming back
    // at once, only the one that claims the order is captured; PayPal lets the other lapse.
    const claim = await payments.claimCapture(token);
    if ('refused' in claim) return claim.refused;
    const requestId = `capture-${token}`;
    // The same PayPal-Request-Id makes a second try after a timeout return the first capture.
    let answer;
    try {
      answer = await api.captureOrder(token, requestId);
    } catch (error) {
      if (!(error instanceof PaypalUnreachable)) throw error;
      // Still unanswered, the capture may have been made: the claim stays until it lapses, and
      // PayPal's webhook reports the capture if there was one.
      answer = await api.captureOrder(token, requestId);
    }
    if (answer.status === 422) {
      // Captured already (another return, or a retry whose answer was lost): read the order.
      answer = await api.getOrder(token);
    }
    const capture = readMoneyResource(captureOf(answer.body), 'capture');
    let outcome = `rejected: PayPal answered ${answer.status} without a capture`;
    if (capture) {
      // An Orders v2 capture answer names its order in the answer, not in the capture.
      if (!capture.parentId) capture.parentId = token;
      outcome = outcomeText(await applyCapture(claim.orderNumber, capture, 'return'));
    }
    // PayPal answered and the order is not paid (declined, not approved): another approval may
    // be captured.
    await payments.releaseCapture(token);
    return outcome;
  }

  const webhookHeaders = [
    'paypal-auth-algo',
    'paypal-cert-url',
    'paypal-transmission-id',
    'paypal-transmission-sig',
    'paypal-transmission-time',
  ] as const;
  type WebhookHeader = (typeof webhookHeaders)[number];

  /**
   * A webhook. It is read only after PayPal's verify-webhook-signature answers SUCCESS; then one
   * naming none of our orders is dropped.
   */
  async function handleWebhook(headers: Record<string, unknown>, event: Record<string, unknown>): Promise<string> {
    // PayPal vouches for the event before anything in it is read or looked up: a forged event
    // naming a real order and one naming none get the same answer (503 while PayPal cannot be
    // asked), so the webhook tells a stranger nothing about which order numbers exist.
    const header = (name: WebhookHeader) => (typeof headers[name] === 'string' ? headers[name] : '');
    // A post without PayPal's signature is not PayPal's: it is not worth a call to PayPal on a
    // stranger's behalf. (Decided by the headers alone, so it says nothing about any order either.)
    if (webhookHeaders.some((name) => header(name) === '')) return 'rejected: not signed';
    const verification = await ask(() =>
      api.verifyWebhookSignature({
        auth_algo: header('paypal-auth-algo'),
        cert_url: header('paypal-cert-url'),
        transmission_id: header('paypal-transmission-id'),
        transmission_sig: header('paypal-transmission-sig'),
        transmission_time: header('paypal-transmission-time'),
        webhook_id: config.paypalCheckout.webhookId,
        webhook_event: event,
      }),
    );
    if (verification.status !== 200)
      throw new UpstreamUnavailableError(`verify-webhook-signature answered ${verification.status}`);
    if (verification.body.verification_status !== 'SUCCESS') return 'rejected: signature not verified';
    const type = typeof event.event_type === 'string' ? event.event_type : '';
    const kind =
      type === 'PAYMENT.CAPTURE.REFUNDED' ? 'refund' : type === 'PAYMENT.CAPTURE.REVERSED' ? 'reversal' : 'capture';
    if (!type.startsWith('PAYMENT.CAPTURE.')) return `ignored ${type.slice(0, 40) || 'no type'}`;
    const resource = readMoneyResource(event.resource, kind === 'capture' ? 'capture' : 'refund');
    const orderNumber = /^\d{1,10}$/.test(resource?.invoiceId ?? '') ? Number(resource?.invoiceId) : undefined;
    if (!resource || orderNumber === undefined || !(await payments.knowsOrder(orderNumber)))
      return 'rejected: names no order';
    if (kind === 'capture') return outcomeText(await applyCapture(orderNumber, resource, `webhook ${type}`));
    return outcomeText(await payments.apply(refundEvent(orderNumber, resource, kind, `webhook ${type}`)));
  }

  const routes: ProviderRoute[] = [
    {
      // One answer whatever the token named (the confirmation page reads the order's own state), and
      // a limit per client: a shopper comes back once or twice.
      method: 'GET',
      url: RETURN_PATH,
      perMinute: 20,
      schema: { querystring: returnQuery },
      async handle(request) {
        try {
          const { token } = request.query as z.infer<typeof returnQuery>;
          request.log.info({ outcome: await handleReturn(token) }, 'PayPal Checkout return');
        } catch (error) {
          // PayPal not answering leaves the order awaiting payment; the shopper may come back again.
          request.log.warn({ err: error }, 'PayPal Checkout return: capture not made');
        }
        return { kind: 'redirect', to: '/checkout-confirm' };
      },
    },
    {
      // Outside /api: PayPal posts here without the shop's CSRF token; its signature is checked instead.
      method: 'POST',
      url: WEBHOOK_PATH,
      perMinute: 120,
      bodyLimit: 64 * 1024,
      async handle(request) {
        const event =
          typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
        const outcome = await handleWebhook(request.headers, event);
        request.log.info({ outcome }, 'PayPal webhook');
        // PayPal wants a 2xx for every event it delivered, whatever we made of it.
        return { kind: 'empty' };
      },
    },
  ];

  return {
    id: PROVIDER_ID,

    async handoff(order, lines) {
      const body = checkoutOrderRequest(order, lines, {
        returnUrl: `${config.publicUrl}${RETURN_PATH}`,
        cancelUrl: `${config.publicUrl}/payment-declined`,
        shopName: await shopName(),
      });
      const answer = await ask(() => api.createOrder(body, `create-${randomUUID()}`));
      const id = typeof answer.body.id === 'string' ? answer.body.id : '';
      const approve = approveLinkOf(answer.body);
      if (answer.status >= 300 || !/^[A-Za-z0-9-]{1,64}$/.test(id) || !approve)
        throw new UpstreamUnavailableError(`PayPal did not create the order (${answer.status})`);
      await payments.recordCheckout(order.id, id);
      return { kind: 'redirect', url: approve };
    },

    routes,

    async refund({ order, amount, requestId, note }): Promise<ProviderRefundResult> {
      if (!order.transaction_id) return { outcome: 'refused', reason: 'The order has no PayPal capture to refund.' };
      const request = {
        amount: { currency_code: 'GBP', value: penceToDecimal(amount) },
        invoice_id: String(order.order_number),
        custom_id: requestId,
        note_to_payer: note.slice(0, 255),
      };
      let answer;
      try {
        answer = await api.refundCapture(order.transaction_id, request, requestId);
      } catch (error) {
        if (!(error instanceof PaypalUnreachable)) throw error;
        try {
          answer = await api.refundCapture(order.transaction_id, request, requestId);
        } catch (again) {
          if (again instanceof PaypalUnreachable) return { outcome: 'unknown', reason: again.message };
          throw again;
        }
      }
      const refund = readMoneyResource(answer.body, 'refund');
      // A success PayPal answered is a refund made, even when its body does not read: the amount
      // stays reserved for the REFUNDED webhook to record, never given back to be refunded again.
      if (answer.status < 300 && !refund)
        return { outcome: 'unknown', reason: `PayPal answered ${answer.status} without a refund that reads` };
      if (answer.status >= 300 || !refund) {
        const details = Array.isArray(answer.body.details) ? (answer.body.details[0] as { issue?: string }) : undefined;
        return { outcome: 'refused', reason: String(details?.issue ?? answer.body.name ?? answer.status) };
      }
      if (!refund.parentId) refund.parentId = order.transaction_id;
      return { outcome: 'refunded', event: refundEvent(order.order_number, refund, 'refund', 'staff refund') };
    },
  } satisfies PaymentProvider;
}
