import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../../http/html.ts';
import { sameSecret } from '../../http/same-secret.ts';
import { decodeFields, decryptCrypt, encodeFields, encryptCrypt } from '../opayo-crypt.ts';
import {
  bareVpsTxId,
  readVspaccess,
  REPORTING_NO_SUCH_TRANSACTION,
  reportingSignature,
} from '../providers/opayo-form/opayo-admin-api.ts';
import { formFields, hiddenFields, isOurs, page, sendPage, toPence } from './sandbox-pages.ts';
import { penceToDecimal } from '../../../contract/money.ts';

/**
 * A local stand-in for Opayo Form 4.00: the registration post, the card page and the encrypted
 * return; and, for refunds (ADR 0014), the Reporting and Admin API's getTransactionDetail (its
 * MD5 signature checked against the configured admin user's password) and the shared protocol's
 * REFUND, for the payments it took. Its transactions are kept in this process's memory, as the
 * PayPal sandbox keeps its orders: a restart starts afresh, and a payment taken before it can then
 * be refunded only by recording a refund made elsewhere. `GET /sandbox/opayo/activity` lists them.
 */

type Fields = Record<string, string>;

interface SandboxTransaction {
  vpsTxId: string;
  vendorTxCode: string;
  type: 'Payment' | 'Refund';
  status: string;
  pence: number;
  currency: string;
  description: string;
  securityKey: string;
  txAuthNo: string;
  /** For a payment: pence refunded so far. For a refund: the payment it refunds. */
  refunded: number;
  relatedVpsTxId?: string;
  at: string;
}

/** Opayo's sandbox test cards, as this stand-in answers them. */
export const sandboxCards = {
  '4929000000006': 'OK',
  '4000000000000002': 'NOTAUTHED',
  '4000000000000003': 'REJECTED',
} as const;

const statusDetails: Record<string, string> = {
  OK: '0000 : The Authorisation was Successful.',
  NOTAUTHED: '2000 : The Authorisation was Declined by the bank.',
  REJECTED: '4020 : Information received from an Invalid IP address.',
  ABORT: '2013 : The transaction was cancelled by the customer.',
};

/** The Crypt's required fields and their longest lengths, as Opayo checks them. */
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

function readCrypt(config: Config, crypt: string | undefined): { fields?: Fields; problems: string[] } {
  let fields: Fields;
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
  if (!isOurs(config, fields.SuccessURL) || !isOurs(config, fields.FailureURL))
    problems.push('SuccessURL and FailureURL must be this shop’s');
  return { fields, problems };
}

/** A registration post read as Opayo reads it: the problems it would refuse, or the Crypt's fields. */
function readRegistration(config: Config, post: Fields): { fields?: Fields; problems: string[] } {
  const problems: string[] = [];
  if (post.VPSProtocol !== '4.00') problems.push('VPSProtocol must be 4.00');
  if (post.TxType !== 'PAYMENT') problems.push('TxType must be PAYMENT');
  if (post.Vendor !== config.opayo.vendor) problems.push('Vendor is not this sandbox’s vendor');
  const read = readCrypt(config, post.Crypt);
  problems.push(...read.problems);
  return { fields: read.fields, problems };
}

function refusedPage(problems: string[]): string {
  return page(
    'Opayo sandbox: request refused',
    `<ul class="error">${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`,
  );
}

function cardPage(crypt: string, f: Fields): string {
  return page(
    'Opayo sandbox: card payment',
    `<p>${escapeHtml(f.Description ?? '')}: <strong>£${escapeHtml(f.Amount ?? '')}</strong></p>
<p>Test cards: 4929 0000 0000 6 is authorised, 4000 0000 0000 0002 is not authorised, 4000 0000 0000 0003 is rejected.</p>
<form method="post" action="/sandbox/opayo/pay">${hiddenFields({ Crypt: crypt })}
<label for="holder">Name on card</label><input id="holder" name="holder" autocomplete="cc-name" value="${escapeHtml(`${f.BillingFirstnames ?? ''} ${f.BillingSurname ?? ''}`)}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number">
<label for="expiry">Expiry (MMYY)</label><input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" value="1230">
<label for="cvv">Security code</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" value="123">
<button type="submit" name="action" value="pay">Pay £${escapeHtml(f.Amount ?? '')}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button></form>`,
  );
}

/** Opayo's answer to a card: the fields of its encrypted return, in Opayo's order. */
function paymentResponse(f: Fields, post: Fields): { status: string; response: Array<[string, string]> } {
  const card = (post.card ?? '').replace(/\D/g, '');
  const status = post.action === 'cancel' ? 'ABORT' : (sandboxCards[card as keyof typeof sandboxCards] ?? 'NOTAUTHED');
  const response: Array<[string, string]> = [
    ['VendorTxCode', f.VendorTxCode ?? ''],
    ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
    ['Status', status],
    ['StatusDetail', statusDetails[status] ?? ''],
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
  return { status, response };
}

/** The XML the Reporting API answers with: `<vspaccess>` and flat elements, errorcode first. */
function vspaccess(fields: Array<[string, string]>): string {
  const text = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="utf-8"?><vspaccess>${fields.map(([name, value]) => `<${name}>${text(value)}</${name}>`).join('')}</vspaccess>`;
}

/** A date as Opayo's reports write it: dd/mm/yyyy hh:mm:ss. */
function reportDate(iso: string): string {
  const [date = '', time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time.slice(0, 8)}`;
}

function nameValueLines(fields: Array<[string, string]>): string {
  return fields.map(([name, value]) => `${name}=${value}`).join('\r\n');
}

export const opayoSandboxRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const transactions = new Map<string, SandboxTransaction>();
  const byVendorTxCode = new Map<string, SandboxTransaction>();
  function keep(transaction: SandboxTransaction) {
    transactions.set(bareVpsTxId(transaction.vpsTxId), transaction);
    byVendorTxCode.set(transaction.vendorTxCode, transaction);
  }

  /**
   * getTransactionDetail, as the Reporting API answers it. Its own error codes and texts are the
   * sandbox's (the shop reads only 0000 as success). The signature is checked over the elements
   * exactly as they came, the way Opayo checks it.
   */
  function reportingAnswer(xml: string): string {
    const signed = /^<vspaccess>([\s\S]*)<signature>([0-9A-Fa-f]{32})<\/signature><\/vspaccess>$/.exec(xml.trim());
    const error = (code: string, text: string) =>
      vspaccess([
        ['errorcode', code],
        ['error', text],
        ['timestamp', reportDate(new Date().toISOString())],
      ]);
    if (!signed) return error('0001', 'The XML is not a signed vspaccess command.');
    const elements = signed[1] ?? '';
    const command = readVspaccess(`<vspaccess>${elements}</vspaccess>`) ?? {};
    const admin = config.opayo.admin;
    if (command.vendor !== config.opayo.vendor || !admin || command.user !== admin.user)
      return error('0002', 'The vendor or user is not this sandbox’s.');
    if (!sameSecret(reportingSignature(elements, admin.password), (signed[2] ?? '').toLowerCase()))
      return error('0003', 'The signature does not match: check the user’s password.');
    if (command.command !== 'getTransactionDetail')
      return error('0004', 'This sandbox answers getTransactionDetail only.');
    const found = command.vpstxid
      ? transactions.get(bareVpsTxId(command.vpstxid))
      : command.vendortxcode
        ? byVendorTxCode.get(command.vendortxcode)
        : undefined;
    if (!found)
      return error(REPORTING_NO_SUCH_TRANSACTION, 'No transaction of this vendor has that VPSTxId or VendorTxCode.');
    return vspaccess([
      ['errorcode', '0000'],
      ['timestamp', reportDate(new Date().toISOString())],
      ['vpstxid', bareVpsTxId(found.vpsTxId)],
      ['vendortxcode', found.vendorTxCode],
      ['transactiontype', found.type],
      ['status', found.status],
      ['description', found.description],
      ['amount', penceToDecimal(found.pence)],
      ['currency', found.currency],
      ['started', reportDate(found.at)],
      ['completed', reportDate(found.at)],
      ['securitykey', found.securityKey],
      ['vpsauthcode', found.txAuthNo],
      ['refunded', found.type === 'Payment' && found.refunded > 0 ? 'YES' : 'NO'],
    ]);
  }

  /** A REFUND, checked as Opayo checks it: the Status and the fields of its answer. */
  function refundAnswer(post: Fields): Array<[string, string]> {
    const refused = (status: 'MALFORMED' | 'INVALID', detail: string): Array<[string, string]> => [
      ['VPSProtocol', '4.00'],
      ['Status', status],
      ['StatusDetail', detail],
    ];
    for (const name of ['VPSProtocol', 'TxType', 'Vendor', 'VendorTxCode', 'Amount', 'Currency', 'Description'])
      if (!post[name]) return refused('MALFORMED', `The ${name} field is missing.`);
    for (const name of ['RelatedVPSTxId', 'RelatedVendorTxCode', 'RelatedSecurityKey', 'RelatedTxAuthNo'])
      if (!post[name]) return refused('MALFORMED', `The ${name} field is missing.`);
    if (post.VPSProtocol !== '4.00') return refused('MALFORMED', 'VPSProtocol must be 4.00.');
    if (post.TxType !== 'REFUND') return refused('MALFORMED', 'TxType must be REFUND.');
    if (post.Vendor !== config.opayo.vendor) return refused('INVALID', 'The Vendor is not this sandbox’s.');
    if ((post.VendorTxCode ?? '').length > 40) return refused('MALFORMED', 'VendorTxCode is longer than 40.');
    if (byVendorTxCode.has(post.VendorTxCode ?? ''))
      return refused('INVALID', '4042 : The VendorTxCode has been used before for another transaction.');
    if (!/^\d+\.\d{2}$/.test(post.Amount ?? '')) return refused('MALFORMED', 'Amount is not like 1234.56.');
    const original = transactions.get(bareVpsTxId(post.RelatedVPSTxId ?? ''));
    if (
      !original ||
      original.type !== 'Payment' ||
      original.status !== 'OK' ||
      original.vendorTxCode !== post.RelatedVendorTxCode ||
      original.securityKey !== post.RelatedSecurityKey ||
      original.txAuthNo !== post.RelatedTxAuthNo
    )
      return refused('INVALID', 'The related transaction is not one of this vendor’s authorised payments.');
    if (post.Currency !== original.currency) return refused('INVALID', 'The Currency is not the payment’s.');
    const pence = toPence(post.Amount);
    if (pence <= 0 || original.refunded + pence > original.pence)
      return refused('INVALID', '4035 : This Refund would exceed the amount of the original transaction.');
    original.refunded += pence;
    const refund: SandboxTransaction = {
      vpsTxId: `{${randomUUID().toUpperCase()}}`,
      vendorTxCode: post.VendorTxCode ?? '',
      type: 'Refund',
      status: 'OK',
      pence,
      currency: original.currency,
      description: post.Description ?? '',
      securityKey: randomBytes(5).toString('hex').toUpperCase(),
      txAuthNo: String(10_000_000 + Math.floor(Math.random() * 89_999_999)),
      refunded: 0,
      relatedVpsTxId: original.vpsTxId,
      at: new Date().toISOString(),
    };
    keep(refund);
    return [
      ['VPSProtocol', '4.00'],
      ['Status', 'OK'],
      ['StatusDetail', '0000 : The Authorisation was Successful.'],
      ['VPSTxId', refund.vpsTxId],
      ['TxAuthNo', refund.txAuthNo],
    ];
  }

  const sendText = (reply: FastifyReply, text: string, type: string) =>
    reply.status(200).type(type).header('cache-control', 'no-store').send(text);

  app.post('/opayo/vspform-register.vsp', (request, reply) => {
    const post = formFields(request.body);
    const { fields, problems } = readRegistration(config, post);
    if (problems.length > 0 || !fields) return sendPage(reply, 400, refusedPage(problems));
    return sendPage(reply, 200, cardPage(post.Crypt ?? '', fields));
  });

  app.post('/opayo/pay', (request, reply) => {
    const post = formFields(request.body);
    const read = readCrypt(config, post.Crypt);
    if (read.problems.length > 0 || !read.fields)
      return sendPage(reply, 400, page('Opayo sandbox', '<p class="error">Not a valid request.</p>'));
    const { status, response } = paymentResponse(read.fields, post);
    const field = (name: string) => response.find(([key]) => key === name)?.[1] ?? '';
    keep({
      vpsTxId: field('VPSTxId'),
      vendorTxCode: read.fields.VendorTxCode ?? '',
      type: 'Payment',
      status,
      pence: toPence(read.fields.Amount),
      currency: read.fields.Currency ?? 'GBP',
      description: read.fields.Description ?? '',
      securityKey: randomBytes(5).toString('hex').toUpperCase(),
      txAuthNo: field('TxAuthNo'),
      refunded: 0,
      at: new Date().toISOString(),
    });
    const crypt = encryptCrypt(encodeFields(response), config.opayo.encryptionPassword);
    const target = status === 'OK' ? read.fields.SuccessURL : read.fields.FailureURL;
    return reply.redirect(`${target}?crypt=${crypt}`, 303);
  });

  app.post('/opayo/access/access.htm', (request, reply) =>
    sendText(reply, reportingAnswer(formFields(request.body).XML ?? ''), 'application/xml; charset=utf-8'),
  );

  app.post('/opayo/gateway/service/refund.vsp', (request, reply) =>
    sendText(reply, nameValueLines(refundAnswer(formFields(request.body))), 'text/plain; charset=utf-8'),
  );

  app.get('/opayo/activity', (_request, reply) => {
    const rows = [...transactions.values()]
      .filter((transaction) => transaction.status === 'OK')
      .map((transaction) => {
        const order = /^RAAG-R?(\d+)-/.exec(transaction.vendorTxCode)?.[1] ?? '';
        const amount = `${transaction.type === 'Refund' ? '-' : ''}£${penceToDecimal(transaction.pence)}`;
        return `<tr><td>${transaction.type} ${escapeHtml(transaction.vpsTxId)}</td><td>Order ${escapeHtml(order)}</td><td>${amount}</td></tr>`;
      })
      .reverse();
    return sendPage(
      reply,
      200,
      page(
        'Opayo sandbox: activity',
        `<table><thead><tr><th scope="col">What</th><th scope="col">For</th><th scope="col">Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      ),
    );
  });
};
