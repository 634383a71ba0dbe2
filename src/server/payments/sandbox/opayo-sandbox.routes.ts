import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../../http/html.ts';
import { decodeFields, decryptCrypt, encodeFields, encryptCrypt } from '../opayo-crypt.ts';
import { formFields, hiddenFields, isOurs, page, sendPage } from './sandbox-pages.ts';

/** A local stand-in for Opayo Form 4.00: the registration post, the card page and the encrypted return. */

type Fields = Record<string, string>;

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

export const opayoSandboxRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
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
    const crypt = encryptCrypt(encodeFields(response), config.opayo.encryptionPassword);
    const target = status === 'OK' ? read.fields.SuccessURL : read.fields.FailureURL;
    return reply.redirect(`${target}?crypt=${crypt}`, 303);
  });
};
