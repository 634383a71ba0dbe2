import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { penceToDecimal } from '../../../contract/money.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { settingOrCreate } from '../../db/settings.repository.ts';
import { allowInlineStyle } from '../../http/security-headers.ts';
import { escapeHtml } from '../../http/html.ts';
import { sameSecret } from '../../http/same-secret.ts';
import { decodeFields, decryptCrypt, encodeFields, encryptCrypt } from '../opayo-crypt.ts';

/**
 * Local stand-ins for PayPal and Opayo, so a whole purchase runs offline in development, tests and
 * the demo. Each speaks its provider's real protocol and says plainly that it is a sandbox.
 * Registered only in local mode, which the configuration refuses in production.
 */

/** Opayo's sandbox test cards, as this stand-in answers them. */
export const sandboxCards = {
  '4929000000006': 'OK',
  '4000000000000002': 'NOTAUTHED',
  '4000000000000003': 'REJECTED',
} as const;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1b1f24}
.banner{background:#7a1f00;color:#fff;padding:.75rem 1rem;font-weight:700}
main{max-width:560px;margin:1.5rem auto;background:#fff;padding:1.5rem;border-radius:10px;box-shadow:0 2px 10px rgb(0 0 0/.08)}
table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #dde;text-align:left}
td:last-child,th:last-child{text-align:right}label{display:block;font-weight:600;margin-top:.75rem}
input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #778;border-radius:6px}
button{margin-top:1rem;margin-right:.5rem;padding:.7rem 1.2rem;font:inherit;font-weight:700;border-radius:999px;border:2px solid #0b4f8a;background:#0b4f8a;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b4f8a}a.cancel{display:inline-block;margin-top:1rem;color:#0b4f8a;font-weight:700}.error{color:#b91c1c}
</style></head>
<body><div class="banner" role="note">SANDBOX: a local stand-in for testing. No real payment is taken.</div>
<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

function hiddenFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

function formFields(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : ''));
}

function toPence(decimal: string | undefined): number {
  return /^\d+(\.\d{1,2})?$/.test(decimal ?? '') ? Math.round(Number(decimal) * 100) : 0;
}

export const paymentSandboxRoutes: FastifyPluginAsync<{ config: Config; db: Kysely<Database> }> = async (
  app,
  { config, db },
) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, body),
  );
  /** Our own addresses only: the sandbox must not be a way to reach other hosts. */
  const ours = (url: string | undefined) => Boolean(url?.startsWith(`${config.publicUrl}/`));
  const html = (reply: FastifyReply, status: number, content: string) =>
    allowInlineStyle(reply)
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(content);

  // ---- PayPal Payments Standard ----
  /**
   * The sandbox signs each IPN it sends in its verify_sign field (a field real IPNs carry too), and
   * the validation postback is VERIFIED only for a body whose signature holds. Nothing is kept in
   * memory but the key, so an IPN sent by one instance validates on another, and after a restart.
   * The key is random, made once per database and kept in it (docs/rules.md#operations): one derived from the
   * configuration (PUBLIC_URL, when there is no SESSION_SECRET) let anyone sign a forged IPN.
   */
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
  const signedBySandbox = async (ipn: string) => {
    const at = ipn.lastIndexOf('&verify_sign=');
    if (at < 0) return false;
    return sameSecret(await signatureOf(ipn.slice(0, at)), ipn.slice(at + '&verify_sign='.length));
  };

  app.post('/paypal/webscr', (request, reply) => {
    const fields = formFields(request.body);
    if (fields.cmd !== '_cart' || fields.upload !== '1' || !ours(fields.notify_url) || !ours(fields.return)) {
      return html(reply, 400, page('PayPal sandbox', '<p class="error">This is not a cart upload for this shop.</p>'));
    }
    const rows: string[] = [];
    let total = 0;
    for (let n = 1; fields[`item_name_${n}`] !== undefined; n++) {
      const amount = toPence(fields[`amount_${n}`]);
      const quantity = Number(fields[`quantity_${n}`] ?? '1');
      total += amount * quantity;
      rows.push(
        `<tr><td>${escapeHtml(fields[`item_name_${n}`] ?? '')}</td><td>${quantity}</td><td>£${penceToDecimal(amount * quantity)}</td></tr>`,
      );
    }
    total += toPence(fields.handling_cart) - toPence(fields.discount_amount_cart);
    return html(
      reply,
      200,
      page(
        'PayPal sandbox: pay for your order',
        `<p>Order ${escapeHtml(fields.invoice ?? '')} for ${escapeHtml(fields.business ?? '')}</p>
<table><thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Price</th></tr></thead><tbody>${rows.join('')}
<tr><td>Delivery</td><td></td><td>£${escapeHtml(fields.handling_cart ?? '0.00')}</td></tr>
<tr><td>Discount</td><td></td><td>-£${escapeHtml(fields.discount_amount_cart ?? '0.00')}</td></tr>
<tr><th scope="row">Total</th><td></td><th>£${penceToDecimal(total)}</th></tr></tbody></table>
<form method="post" action="/sandbox/paypal/pay">${hiddenFields(fields)}<button type="submit">Pay £${penceToDecimal(total)}</button></form>
<p><a class="cancel" href="${escapeHtml(fields.cancel_return ?? '/')}">Cancel and return to the shop</a></p>`,
      ),
    );
  });

  app.post('/paypal/pay', async (request, reply) => {
    const fields = formFields(request.body);
    if (!ours(fields.notify_url) || !ours(fields.return))
      return html(reply, 400, page('PayPal sandbox', '<p class="error">Not for this shop.</p>'));
    let gross = toPence(fields.handling_cart) - toPence(fields.discount_amount_cart);
    let items = 0;
    for (let n = 1; fields[`item_name_${n}`] !== undefined; n++, items++) {
      gross += toPence(fields[`amount_${n}`]) * Number(fields[`quantity_${n}`] ?? '1');
    }
    const ipn = new URLSearchParams({
      mc_gross: penceToDecimal(gross),
      invoice: fields.invoice ?? '',
      custom: fields.custom ?? '',
      payment_status: 'Completed',
      txn_id: randomBytes(9).toString('hex').toUpperCase().slice(0, 17),
      txn_type: 'cart',
      mc_currency: fields.currency_code ?? 'GBP',
      receiver_email: fields.business ?? '',
      payer_email: 'buyer@sandbox.example',
      num_cart_items: String(items),
      charset: 'UTF-8',
      notify_version: '3.9',
    }).toString();
    const signedIpn = `${ipn}&verify_sign=${await signatureOf(ipn)}`;
    try {
      await fetch(fields.notify_url as string, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: signedIpn,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      request.log.warn({ err: error }, 'sandbox IPN could not be delivered');
    }
    return reply.redirect(fields.return as string, 303);
  });

  app.post('/paypal/ipn-validate', async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const prefix = 'cmd=_notify-validate&';
    const verified = body.startsWith(prefix) && (await signedBySandbox(body.slice(prefix.length)));
    return reply.type('text/plain').send(verified ? 'VERIFIED' : 'INVALID');
  });

  // ---- Opayo Form 4.00 ----
  const required: Array<[string, number]> = [
    ['VendorTxCode', 40],
    ['Amount', 12],
    ['Currency', 3],
    ['Description', 100],
    ['SuccessURL', 2000],
    ['FailureURL', 2000],
    ['CustomerEMail', 255],
    ...(['Billing', 'Delivery'] as const).flatMap((p): Array<[string, number]> => [
      [`${p}Surname`, 20],
      [`${p}Firstnames`, 20],
      [`${p}Address1`, 100],
      [`${p}City`, 40],
      [`${p}PostCode`, 10],
      [`${p}Country`, 2],
    ]),
  ];

  function readCrypt(crypt: string | undefined): { fields?: Record<string, string>; problems: string[] } {
    let fields: Record<string, string>;
    try {
      fields = decodeFields(decryptCrypt(crypt ?? '', config.opayo.encryptionPassword));
    } catch {
      return { problems: ['The Crypt field could not be decrypted with this vendor’s password.'] };
    }
    const problems = required.flatMap(([name, max]) =>
      !fields[name]
        ? [`${name} is missing`]
        : (fields[name] as string).length > max
          ? [`${name} is longer than ${max}`]
          : [],
    );
    if (!/^\d+\.\d{2}$/.test(fields.Amount ?? '')) problems.push('Amount is not like 1234.56');
    if (!ours(fields.SuccessURL) || !ours(fields.FailureURL))
      problems.push('SuccessURL and FailureURL must be this shop’s');
    return { fields, problems };
  }

  app.post('/opayo/vspform-register.vsp', (request, reply) => {
    const post = formFields(request.body);
    const problems: string[] = [];
    if (post.VPSProtocol !== '4.00') problems.push('VPSProtocol must be 4.00');
    if (post.TxType !== 'PAYMENT') problems.push('TxType must be PAYMENT');
    if (post.Vendor !== config.opayo.vendor) problems.push('Vendor is not this sandbox’s vendor');
    const read = readCrypt(post.Crypt);
    problems.push(...read.problems);
    if (problems.length > 0 || !read.fields) {
      return html(
        reply,
        400,
        page(
          'Opayo sandbox: request refused',
          `<ul class="error">${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`,
        ),
      );
    }
    const f = read.fields;
    return html(
      reply,
      200,
      page(
        'Opayo sandbox: card payment',
        `<p>${escapeHtml(f.Description ?? '')}: <strong>£${escapeHtml(f.Amount ?? '')}</strong></p>
<p>Test cards: 4929 0000 0000 6 is authorised, 4000 0000 0000 0002 is not authorised, 4000 0000 0000 0003 is rejected.</p>
<form method="post" action="/sandbox/opayo/pay">${hiddenFields({ Crypt: post.Crypt ?? '' })}
<label for="holder">Name on card</label><input id="holder" name="holder" autocomplete="cc-name" value="${escapeHtml(`${f.BillingFirstnames ?? ''} ${f.BillingSurname ?? ''}`)}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number">
<label for="expiry">Expiry (MMYY)</label><input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" value="1230">
<label for="cvv">Security code</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" value="123">
<button type="submit" name="action" value="pay">Pay £${escapeHtml(f.Amount ?? '')}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button></form>`,
      ),
    );
  });

  app.post('/opayo/pay', (request, reply) => {
    const post = formFields(request.body);
    const read = readCrypt(post.Crypt);
    if (read.problems.length > 0 || !read.fields)
      return html(reply, 400, page('Opayo sandbox', '<p class="error">Not a valid request.</p>'));
    const f = read.fields;
    const card = (post.card ?? '').replace(/\D/g, '');
    const status =
      post.action === 'cancel' ? 'ABORT' : (sandboxCards[card as keyof typeof sandboxCards] ?? 'NOTAUTHED');
    const details: Record<string, string> = {
      OK: '0000 : The Authorisation was Successful.',
      NOTAUTHED: '2000 : The Authorisation was Declined by the bank.',
      REJECTED: '4020 : Information received from an Invalid IP address.',
      ABORT: '2013 : The transaction was cancelled by the customer.',
    };
    const response: Array<[string, string]> = [
      ['VendorTxCode', f.VendorTxCode ?? ''],
      ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
      ['Status', status],
      ['StatusDetail', details[status] ?? ''],
      ...(status === 'OK'
        ? ([['TxAuthNo', String(10_000_000 + Math.floor(Math.random() * 89_999_999))]] as Array<[string, string]>)
        : []),
      ['AVSCV2', status === 'OK' ? 'ALL MATCH' : 'NO DATA MATCHES'],
      ['AddressResult', 'MATCHED'],
      ['PostCodeResult', 'MATCHED'],
      ['CV2Result', 'MATCHED'],
      ['GiftAid', '0'],
      ['3DSecureStatus', 'NOTCHECKED'],
      ['CardType', 'VISA'],
      ['Last4Digits', card.slice(-4) || '0000'],
      ['Amount', f.Amount ?? ''],
    ];
    const crypt = encryptCrypt(encodeFields(response), config.opayo.encryptionPassword);
    const target = status === 'OK' ? f.SuccessURL : f.FailureURL;
    return reply.redirect(`${target}?crypt=${crypt}`, 303);
  });
};
