import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { penceToDecimal } from '../../../contract/money.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { settingOrCreate } from '../../db/settings.repository.ts';
import { escapeHtml } from '../../http/html.ts';
import { sameSecret } from '../../http/same-secret.ts';
import { formFields, hiddenFields, isOurs, page, sendPage, toPence } from './sandbox-pages.ts';

/**
 * A local stand-in for PayPal's REST API as PayPal Checkout uses it (docs/rules.md#payments): the OAuth2
 * token, Orders v2 (create, the approve page with Pay and Cancel, capture), captures' refunds,
 * webhook delivery to the shop signed so that verify-webhook-signature can check it, and that
 * verification. A PayPal-Request-Id replays the first answer, as PayPal does, so a retried capture
 * or refund happens once. Orders and refunds are kept in this process's memory (a restart starts
 * afresh); the webhook signing key is kept in the database, so any instance verifies another's.
 * `GET /sandbox/paypal/activity` lists what it took and gave back.
 */

type Json = Record<string, unknown>;
const TOKEN_SECONDS = 32_400;

interface SandboxOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  request: Json;
  amount: { currency_code: string; value: string };
  invoiceId: string;
  returnUrl: string;
  cancelUrl: string;
  capture?: Json;
  refunded: number;
}

const id17 = () => randomBytes(13).toString('base64url').replace(/[-_]/g, 'X').toUpperCase().slice(0, 17);

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null ? (value as Json) : {};
}

function problem(reply: FastifyReply, status: number, name: string, issue: string) {
  return reply.status(status).send({ name, message: issue, details: [{ issue }], debug_id: id17() });
}

/** What PayPal checks of a new order: one GBP unit whose breakdown and items make its amount. */
function orderProblem(body: Json, config: Pick<Config, 'publicUrl'>): string | undefined {
  if (body.intent !== 'CAPTURE') return 'INVALID_INTENT';
  const units = Array.isArray(body.purchase_units) ? body.purchase_units.map(record) : [];
  const unit = units[0];
  if (units.length !== 1 || !unit) return 'INVALID_PURCHASE_UNITS';
  const amount = record(unit.amount);
  const breakdown = record(amount.breakdown);
  const money = (value: unknown) => toPence(record(value).value as string | undefined);
  if (amount.currency_code !== 'GBP') return 'CURRENCY_NOT_SUPPORTED';
  const items = Array.isArray(unit.items) ? unit.items.map(record) : [];
  const itemSum = items.reduce((sum, item) => sum + money(item.unit_amount) * Number(item.quantity), 0);
  if (itemSum !== money(breakdown.item_total)) return 'ITEM_TOTAL_MISMATCH';
  if (money(breakdown.item_total) + money(breakdown.shipping) - money(breakdown.discount) !== money(amount))
    return 'AMOUNT_MISMATCH';
  const context = record(record(record(body.payment_source).paypal).experience_context);
  if (!isOurs(config, context.return_url as string) || !isOurs(config, context.cancel_url as string))
    return 'INVALID_RETURN_URL';
  return undefined;
}

export const paypalCheckoutSandboxRoutes: FastifyPluginAsync<{
  config: Config;
  db: Kysely<Database>;
  fetch?: typeof fetch;
}> = async (app, { config, db, fetch: send = fetch }) => {
  const base = `${config.publicUrl}/sandbox/paypal`;
  const tokens = new Map<string, number>();
  const orders = new Map<string, SandboxOrder>();
  const captures = new Map<string, string>();
  const refunds: Json[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();

  let signingKey: Promise<string> | undefined;
  const keyOf = () => {
    signingKey ??= settingOrCreate(db, 'paypal_sandbox_webhook_key', () => randomBytes(32).toString('base64url'));
    signingKey.catch(() => (signingKey = undefined));
    return signingKey;
  };
  /** PayPal signs transmission id, time, webhook id and the body's CRC32; here with an HMAC. */
  const signatureOf = async (transmissionId: string, time: string, webhookId: string, body: string) =>
    createHmac('sha256', await keyOf())
      .update(`${transmissionId}|${time}|${webhookId}|${crc32(body)}`)
      .digest('base64');

  const authorised = (request: FastifyRequest) => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    return (tokens.get(token) ?? 0) > Date.now();
  };

  /** Answers a call once per PayPal-Request-Id: a repeat gets the first answer. */
  async function idempotent(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    make: () => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>,
  ) {
    const requestId = request.headers['paypal-request-id'];
    const key = typeof requestId === 'string' && requestId ? `${scope}:${requestId}` : undefined;
    const earlier = key ? replies.get(key) : undefined;
    const answer = earlier ?? (await make());
    if (key && !earlier && answer.status < 300) replies.set(key, answer);
    return reply.status(answer.status).send(answer.body);
  }

  /** Posts an event to the shop's webhook, signed; after the answer that caused it, as PayPal does. */
  function deliver(eventType: string, resource: Json, log: FastifyBaseLogger): void {
    const event = {
      id: `WH-${id17()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: eventType.includes('REFUNDED') || eventType.includes('REVERSED') ? 'refund' : 'capture',
      event_type: eventType,
      summary: eventType,
      resource,
    };
    setImmediate(() => {
      void (async () => {
        const body = JSON.stringify(event);
        const transmissionId = randomUUID();
        const time = new Date().toISOString();
        try {
          await send(`${config.publicUrl}/webhooks/paypal`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'paypal-auth-algo': 'SHA256withRSA',
              'paypal-cert-url': `${base}/certs/local`,
              'paypal-transmission-id': transmissionId,
              'paypal-transmission-time': time,
              'paypal-transmission-sig': await signatureOf(transmissionId, time, config.paypalCheckout.webhookId, body),
            },
            body,
            signal: AbortSignal.timeout(15_000),
          });
        } catch (error) {
          log.warn({ err: error }, 'sandbox webhook could not be delivered');
        }
      })();
    });
  }

  const orderView = (order: SandboxOrder) => ({
    id: order.id,
    intent: 'CAPTURE',
    status: order.status,
    purchase_units: [
      {
        ...(Array.isArray(order.request.purchase_units) ? record(order.request.purchase_units[0]) : {}),
        ...(order.capture ? { payments: { captures: [order.capture] } } : {}),
      },
    ],
    links: [
      { href: `${base}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
      ...(order.status === 'PAYER_ACTION_REQUIRED'
        ? [{ href: `${base}/checkoutnow?token=${order.id}`, rel: 'payer-action', method: 'GET' }]
        : []),
    ],
  });

  app.post('/paypal/v1/oauth2/token', (request, reply) => {
    const expected = `Basic ${Buffer.from(`${config.paypalCheckout.clientId}:${config.paypalCheckout.clientSecret}`).toString('base64')}`;
    if (
      !sameSecret(request.headers.authorization ?? '', expected) ||
      formFields(request.body).grant_type !== 'client_credentials'
    )
      return reply.status(401).send({ error: 'invalid_client', error_description: 'Client Authentication failed' });
    const token = `A21AA${randomBytes(24).toString('base64url')}`;
    tokens.set(token, Date.now() + TOKEN_SECONDS * 1000);
    return {
      scope: 'https://uri.paypal.com/services/payments/payment',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-LOCAL',
      expires_in: TOKEN_SECONDS,
      nonce: randomUUID(),
    };
  });

  app.post('/paypal/v2/checkout/orders', (request, reply) => {
    if (!authorised(request)) return problem(reply, 401, 'AUTHENTICATION_FAILURE', 'INVALID_TOKEN');
    return idempotent(request, reply, 'create', () => {
      const body = record(request.body);
      const issue = orderProblem(body, config);
      if (issue) return { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] } };
      const unit = record((body.purchase_units as unknown[])[0]);
      const context = record(record(record(body.payment_source).paypal).experience_context);
      const amount = record(unit.amount);
      const order: SandboxOrder = {
        id: id17(),
        status: 'PAYER_ACTION_REQUIRED',
        request: body,
        amount: { currency_code: String(amount.currency_code), value: String(amount.value) },
        invoiceId: String(unit.invoice_id ?? ''),
        returnUrl: String(context.return_url),
        cancelUrl: String(context.cancel_url),
        refunded: 0,
      };
      orders.set(order.id, order);
      return { status: 200, body: orderView(order) };
    });
  });

  app.get<{ Params: { id: string } }>('/paypal/v2/checkout/orders/:id', (request, reply) => {
    if (!authorised(request)) return problem(reply, 401, 'AUTHENTICATION_FAILURE', 'INVALID_TOKEN');
    const order = orders.get(request.params.id);
    return order ? orderView(order) : problem(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
  });

  /** The approve page: the order's lines, Pay and Cancel. */
  app.get<{ Querystring: { token?: string } }>('/paypal/checkoutnow', (request, reply) => {
    const order = orders.get(request.query.token ?? '');
    if (!order || order.status !== 'PAYER_ACTION_REQUIRED')
      return sendPage(reply, 404, page('PayPal sandbox', '<p class="error">This order cannot be approved.</p>'));
    const unit = record((order.request.purchase_units as unknown[])[0]);
    const breakdown = record(record(unit.amount).breakdown);
    const items = (Array.isArray(unit.items) ? unit.items : []).map(record);
    const rows = items.map(
      (item) =>
        `<tr><td>${escapeHtml(String(item.name))}</td><td>${escapeHtml(String(item.quantity))}</td><td>£${escapeHtml(String(record(item.unit_amount).value))}</td></tr>`,
    );
    return sendPage(
      reply,
      200,
      page(
        'PayPal sandbox: approve your payment',
        `<p>Order ${escapeHtml(order.invoiceId)}</p>
<table><thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Price</th></tr></thead><tbody>${rows.join('')}
<tr><td>Delivery</td><td></td><td>£${escapeHtml(String(record(breakdown.shipping).value ?? '0.00'))}</td></tr>
<tr><td>Discount</td><td></td><td>-£${escapeHtml(String(record(breakdown.discount).value ?? '0.00'))}</td></tr>
<tr><th scope="row">Total</th><td></td><th>£${escapeHtml(order.amount.value)}</th></tr></tbody></table>
<form method="post" action="/sandbox/paypal/checkoutnow">${hiddenFields({ token: order.id })}
<button type="submit" name="action" value="pay">Pay £${escapeHtml(order.amount.value)}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button></form>`,
      ),
    );
  });

  app.post('/paypal/checkoutnow', (request, reply) => {
    const post = formFields(request.body);
    const order = orders.get(post.token ?? '');
    if (!order || order.status !== 'PAYER_ACTION_REQUIRED')
      return sendPage(reply, 404, page('PayPal sandbox', '<p class="error">This order cannot be approved.</p>'));
    if (post.action !== 'pay') return reply.redirect(`${order.cancelUrl}?token=${order.id}`, 303);
    order.status = 'APPROVED';
    return reply.redirect(`${order.returnUrl}?token=${order.id}&PayerID=${id17().slice(0, 13)}`, 303);
  });

  app.post<{ Params: { id: string } }>('/paypal/v2/checkout/orders/:id/capture', (request, reply) => {
    if (!authorised(request)) return problem(reply, 401, 'AUTHENTICATION_FAILURE', 'INVALID_TOKEN');
    return idempotent(request, reply, 'capture', () => {
      const order = orders.get(request.params.id);
      if (!order)
        return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };
      if (order.status === 'COMPLETED')
        return { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] } };
      if (order.status !== 'APPROVED')
        return { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] } };
      order.status = 'COMPLETED';
      order.capture = {
        id: id17(),
        status: 'COMPLETED',
        amount: order.amount,
        final_capture: true,
        invoice_id: order.invoiceId,
        supplementary_data: { related_ids: { order_id: order.id } },
        create_time: new Date().toISOString(),
        links: [{ href: `${base}/v2/payments/captures/${order.id}`, rel: 'self', method: 'GET' }],
      };
      captures.set(String(order.capture.id), order.id);
      deliver('PAYMENT.CAPTURE.COMPLETED', order.capture, request.log);
      return { status: 201, body: orderView(order) };
    });
  });

  app.post<{ Params: { id: string } }>('/paypal/v2/payments/captures/:id/refund', (request, reply) => {
    if (!authorised(request)) return problem(reply, 401, 'AUTHENTICATION_FAILURE', 'INVALID_TOKEN');
    return idempotent(request, reply, 'refund', () => {
      const order = orders.get(captures.get(request.params.id) ?? '');
      if (!order?.capture)
        return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };
      const body = record(request.body);
      const asked = body.amount === undefined ? undefined : record(body.amount);
      const total = toPence(order.amount.value);
      const pence = asked ? toPence(asked.value as string) : total - order.refunded;
      if (asked && asked.currency_code !== 'GBP')
        return { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'CURRENCY_MISMATCH' }] } };
      if (pence <= 0 || pence > total - order.refunded)
        return { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'REFUND_AMOUNT_EXCEEDED' }] } };
      order.refunded += pence;
      const refund = {
        id: id17(),
        status: 'COMPLETED',
        amount: { currency_code: 'GBP', value: penceToDecimal(pence) },
        invoice_id: order.invoiceId,
        ...(typeof body.custom_id === 'string' ? { custom_id: body.custom_id } : {}),
        note_to_payer: typeof body.note_to_payer === 'string' ? body.note_to_payer : undefined,
        create_time: new Date().toISOString(),
        links: [
          { href: `${base}/v2/payments/refunds/${order.id}`, rel: 'self', method: 'GET' },
          { href: `${base}/v2/payments/captures/${String(order.capture?.id)}`, rel: 'up', method: 'GET' },
        ],
      };
      refunds.push(refund);
      deliver('PAYMENT.CAPTURE.REFUNDED', refund, request.log);
      return { status: 201, body: refund };
    });
  });

  app.post('/paypal/v1/notifications/verify-webhook-signature', async (request, reply) => {
    if (!authorised(request)) return problem(reply, 401, 'AUTHENTICATION_FAILURE', 'INVALID_TOKEN');
    const body = record(request.body);
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const expected = await signatureOf(
      field('transmission_id'),
      field('transmission_time'),
      field('webhook_id'),
      JSON.stringify(body.webhook_event ?? null),
    );
    const verified =
      field('webhook_id') === config.paypalCheckout.webhookId && sameSecret(expected, field('transmission_sig'));
    return { verification_status: verified ? 'SUCCESS' : 'FAILURE' };
  });

  /** What the sandbox took and gave back, newest first: for a person checking a refund arrived. */
  app.get('/paypal/activity', (_request, reply) => {
    const rows = [
      ...[...orders.values()]
        .filter((order) => order.capture)
        .map(
          (order) =>
            `<tr><td>Payment ${escapeHtml(String(order.capture?.id))}</td><td>Order ${escapeHtml(order.invoiceId)}</td><td>£${escapeHtml(order.amount.value)}</td></tr>`,
        ),
      ...refunds.map(
        (refund) =>
          `<tr><td>Refund ${escapeHtml(String(refund.id))}</td><td>Order ${escapeHtml(String(refund.invoice_id))}</td><td>-£${escapeHtml(String(record(refund.amount).value))}</td></tr>`,
      ),
    ].reverse();
    return sendPage(
      reply,
      200,
      page(
        'PayPal sandbox: activity',
        `<table><thead><tr><th scope="col">What</th><th scope="col">For</th><th scope="col">Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      ),
    );
  });
};
