import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { penceToDecimal } from '../../../contract/money.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { settingOrCreate } from '../../db/settings.repository.ts';
import { escapeHtml } from '../../http/html.ts';
import { sameSecret } from '../../http/same-secret.ts';
import { formFields, hiddenFields, isOurs, page, sendPage, toPence } from './sandbox-pages.ts';

/** A local stand-in for PayPal Payments Standard: the cart upload, the payment, its IPN and the IPN's validation. */

type Fields = Record<string, string>;

/**
 * The sandbox signs each IPN it sends in its verify_sign field (a field real IPNs carry too), and
 * the validation postback is VERIFIED only for a body whose signature holds. Nothing is kept in
 * memory but the key, so an IPN sent by one instance validates on another, and after a restart.
 * The key is random, made once per database and kept in it (docs/rules.md#operations): one derived from the
 * configuration (PUBLIC_URL, when there is no SESSION_SECRET) let anyone sign a forged IPN.
 */
function ipnSigner(db: Kysely<Database>) {
  let signingKey: Promise<string> | undefined;
  const keyOf = () => {
    if (!signingKey) {
      signingKey = settingOrCreate(db, 'paypal_sandbox_signing_key', () => randomBytes(32).toString('base64url'));
      // A failed read (the database briefly away) is tried again by the next request.
      signingKey.catch(() => (signingKey = undefined));
    }
    return signingKey;
  };
  const signatureOf = async (body: string) =>
    createHmac('sha256', await keyOf())
      .update(body)
      .digest('base64url');
  return {
    async sign(ipn: string): Promise<string> {
      return `${ipn}&verify_sign=${await signatureOf(ipn)}`;
    },
    async signedBySandbox(ipn: string): Promise<boolean> {
      const at = ipn.lastIndexOf('&verify_sign=');
      if (at < 0) return false;
      return sameSecret(await signatureOf(ipn.slice(0, at)), ipn.slice(at + '&verify_sign='.length));
    },
  };
}

/** The uploaded cart's lines, and its total with delivery (handling) and less the discount, in pence. */
function cartOf(fields: Fields): { lines: Array<{ name: string; quantity: number; amount: number }>; total: number } {
  const lines = [];
  for (let n = 1; fields[`item_name_${n}`] !== undefined; n++) {
    const quantity = Number(fields[`quantity_${n}`] ?? '1');
    lines.push({ name: fields[`item_name_${n}`] ?? '', quantity, amount: toPence(fields[`amount_${n}`]) * quantity });
  }
  const items = lines.reduce((sum, line) => sum + line.amount, 0);
  return { lines, total: items + toPence(fields.handling_cart) - toPence(fields.discount_amount_cart) };
}

function cartPage(fields: Fields): string {
  const { lines, total } = cartOf(fields);
  const rows = lines.map(
    (line) =>
      `<tr><td>${escapeHtml(line.name)}</td><td>${line.quantity}</td><td>£${penceToDecimal(line.amount)}</td></tr>`,
  );
  return page(
    'PayPal sandbox: pay for your order',
    `<p>Order ${escapeHtml(fields.invoice ?? '')} for ${escapeHtml(fields.business ?? '')}</p>
<table><thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Price</th></tr></thead><tbody>${rows.join('')}
<tr><td>Delivery</td><td></td><td>£${escapeHtml(fields.handling_cart ?? '0.00')}</td></tr>
<tr><td>Discount</td><td></td><td>-£${escapeHtml(fields.discount_amount_cart ?? '0.00')}</td></tr>
<tr><th scope="row">Total</th><td></td><th>£${penceToDecimal(total)}</th></tr></tbody></table>
<form method="post" action="/sandbox/paypal/pay">${hiddenFields(fields)}<button type="submit">Pay £${penceToDecimal(total)}</button></form>
<p><a class="cancel" href="${escapeHtml(fields.cancel_return ?? '/')}">Cancel and return to the shop</a></p>`,
  );
}

/** The IPN PayPal sends for a completed cart payment (unsigned). */
function completedIpn(fields: Fields): string {
  const { lines, total } = cartOf(fields);
  return new URLSearchParams({
    mc_gross: penceToDecimal(total),
    invoice: fields.invoice ?? '',
    custom: fields.custom ?? '',
    payment_status: 'Completed',
    txn_id: randomBytes(9).toString('hex').toUpperCase().slice(0, 17),
    txn_type: 'cart',
    mc_currency: fields.currency_code ?? 'GBP',
    receiver_email: fields.business ?? '',
    payer_email: 'buyer@sandbox.example',
    num_cart_items: String(lines.length),
    charset: 'UTF-8',
    notify_version: '3.9',
  }).toString();
}

/** Posts the IPN to the shop's notify_url; one that cannot be delivered is logged, as PayPal would retry it. */
async function deliverIpn(notifyUrl: string, signedIpn: string, log: FastifyBaseLogger): Promise<void> {
  try {
    await fetch(notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signedIpn,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    log.warn({ err: error }, 'sandbox IPN could not be delivered');
  }
}

export const paypalSandboxRoutes: FastifyPluginAsync<{ config: Config; db: Kysely<Database> }> = async (
  app,
  { config, db },
) => {
  const signer = ipnSigner(db);
  const forThisShop = (fields: Fields) => isOurs(config, fields.notify_url) && isOurs(config, fields.return);

  app.post('/paypal/webscr', (request, reply) => {
    const fields = formFields(request.body);
    if (fields.cmd !== '_cart' || fields.upload !== '1' || !forThisShop(fields)) {
      return sendPage(
        reply,
        400,
        page('PayPal sandbox', '<p class="error">This is not a cart upload for this shop.</p>'),
      );
    }
    return sendPage(reply, 200, cartPage(fields));
  });

  app.post('/paypal/pay', async (request, reply) => {
    const fields = formFields(request.body);
    if (!forThisShop(fields))
      return sendPage(reply, 400, page('PayPal sandbox', '<p class="error">Not for this shop.</p>'));
    await deliverIpn(fields.notify_url as string, await signer.sign(completedIpn(fields)), request.log);
    return reply.redirect(fields.return as string, 303);
  });

  app.post('/paypal/ipn-validate', async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const prefix = 'cmd=_notify-validate&';
    const verified = body.startsWith(prefix) && (await signer.signedBySandbox(body.slice(prefix.length)));
    return reply.type('text/plain').send(verified ? 'VERIFIED' : 'INVALID');
  });
};
