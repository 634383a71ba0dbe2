import { randomBytes } from 'node:crypto';
import { penceToDecimal } from '../../contract/money.ts';
import { encodeFields, encryptCrypt } from './opayo-crypt.ts';

/** Opayo Form 4.00 (docs/rules.md#payments): the request Crypt built from the committed order. */

export type OpayoMode = 'local' | 'test' | 'live';

export function opayoEndpoint(mode: OpayoMode, publicUrl: string): string {
  if (mode === 'local') return `${publicUrl}/sandbox/opayo/vspform-register.vsp`;
  const host = mode === 'test' ? 'sandbox.opayo.eu.elavon.com' : 'live.opayo.eu.elavon.com';
  return `https://${host}/gateway/service/vspform-register.vsp`;
}

/**
 * A value as the protocol takes it: ISO-8859-1 letters only (others become their nearest
 * unaccented form or are dropped), no `&` (the Crypt has no escaping), trimmed to `max`. No `=`
 * either: a shopper's own text is in the request Crypt they are handed, and with `=` it could
 * spell the answer's fields (see RESPONSE_FIELDS).
 */
export function opayoText(value: string, max: number): string {
  return value
    .replace(/&/g, 'and')
    .replace(/=/g, '-')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, (c) => c.normalize('NFKD').replace(/[^\u0020-\u007e]/g, ''))
    .trim()
    .slice(0, max);
}

export interface OrderForOpayo {
  order_number: number;
  order_code: string;
  total_including_delivery: number;
  firstname: string;
  lastname: string;
  email: string;
  contact_number: string;
  billing_line1: string;
  billing_line2: string;
  billing_postcode: string;
  billing_town_city: string;
  delivery_line1: string;
  delivery_line2: string;
  delivery_postcode: string;
  delivery_town_city: string;
}

/** A fresh VendorTxCode per attempt (Opayo refuses a repeat), carrying the order number. */
export function newVendorTxCode(orderNumber: number): string {
  return `RAAG-${orderNumber}-${randomBytes(6).toString('hex')}`;
}

export function orderNumberOf(vendorTxCode: string): number | undefined {
  const match = /^RAAG-(\d+)-[0-9a-f]{12}$/.exec(vendorTxCode);
  return match ? Number(match[1]) : undefined;
}

export function opayoRequestFields(
  order: OrderForOpayo,
  options: { vendorTxCode: string; publicUrl: string; shopName: string },
): Array<[string, string]> {
  const returnUrl = `${options.publicUrl}/api/payments/opayo/return`;
  const address = (prefix: 'Billing' | 'Delivery', line1: string, line2: string, city: string, postcode: string) =>
    [
      [`${prefix}Surname`, opayoText(order.lastname, 20)],
      [`${prefix}Firstnames`, opayoText(order.firstname, 20)],
      [`${prefix}Address1`, opayoText(line1, 100)],
      [`${prefix}Address2`, opayoText(line2, 100)],
      [`${prefix}City`, opayoText(city, 40)],
      [`${prefix}PostCode`, opayoText(postcode, 10)],
      [`${prefix}Country`, 'GB'],
      [`${prefix}Phone`, opayoText(order.contact_number.replace(/[^\d+ ()-]/g, ''), 20)],
    ] as Array<[string, string]>;
  return [
    ['VendorTxCode', options.vendorTxCode.slice(0, 40)],
    ['Amount', penceToDecimal(order.total_including_delivery)],
    ['Currency', 'GBP'],
    ['Description', opayoText(`${options.shopName} order ${order.order_number}`, 100)],
    ['SuccessURL', returnUrl],
    ['FailureURL', returnUrl],
    ['CustomerEMail', opayoText(order.email, 255)],
    ...address('Billing', order.billing_line1, order.billing_line2, order.billing_town_city, order.billing_postcode),
    ...address(
      'Delivery',
      order.delivery_line1,
      order.delivery_line2,
      order.delivery_town_city,
      order.delivery_postcode,
    ),
    ['SendEMail', '0'],
  ];
}

export function opayoRequestCrypt(fields: Array<[string, string]>, password: string): string {
  return encryptCrypt(encodeFields(fields), password);
}

/** A VPSTxId as Opayo gives it: a GUID in braces. */
export const VPS_TX_ID = /^\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}$/i;
const FIELD_NAME = /^[A-Za-z0-9]{1,40}$/;
const PRINTABLE_LATIN1 = /^[\u0020-\u007e\u00a0-\u00ff]*$/;
const STATUSES = new Set(['OK', 'NOTAUTHED', 'REJECTED', 'ABORT', 'ERROR', 'MALFORMED', 'INVALID', 'PENDING']);

/**
 * The fields of Opayo Form 4.00's answer (the Crypt on SuccessURL and FailureURL), and no others.
 * None of the request's own names is among them but VendorTxCode and Amount, so an answer made by
 * rewriting blocks of a request Crypt (which every shopper is handed for their own order, under the
 * same key) still carries Currency, Description, SuccessURL, Billing… and is refused: getting rid of
 * one of those names turns the block before it to noise, and that block holds the VendorTxCode or
 * the Amount, which must match the order.
 */
const RESPONSE_FIELDS = new Set([
  'VendorTxCode',
  'VPSTxId',
  'Status',
  'StatusDetail',
  'TxAuthNo',
  'AVSCV2',
  'AddressResult',
  'PostCodeResult',
  'CV2Result',
  'GiftAid',
  '3DSecureStatus',
  'CAVV',
  'AddressStatus',
  'PayerStatus',
  'CardType',
  'Last4Digits',
  'DeclineCode',
  'ExpiryDate',
  'FraudResponse',
  'BankAuthCode',
  'Amount',
  'Surcharge',
  'ACSTransID',
  'DSTransID',
  'SchemeTraceID',
]);

/**
 * Reads the decrypted answer from Opayo strictly, or answers undefined. The Crypt carries no MAC,
 * so under CBC anyone who knows the text of a block can rewrite it by flipping bits in the block
 * before, which turns into noise (ADR 0008). A shopper knows nearly all of a declined answer's
 * text; what they cannot make is an answer in which the noise still reads as the protocol does:
 * so a field name seen twice or not among the answer's (RESPONSE_FIELDS), a name or value with
 * bytes the protocol never sends, a VPSTxId that is not a GUID in braces, an unknown Status or no
 * Amount each make the whole answer unreadable.
 */
export function readOpayoResponse(plaintext: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const pair of plaintext.split('&')) {
    const at = pair.indexOf('=');
    if (at <= 0) return undefined;
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (!FIELD_NAME.test(name) || !RESPONSE_FIELDS.has(name)) return undefined;
    if (!PRINTABLE_LATIN1.test(value) || Object.hasOwn(fields, name)) return undefined;
    fields[name] = value;
  }
  if (!fields.VendorTxCode || !fields.Amount || !STATUSES.has(fields.Status ?? '')) return undefined;
  if (fields.VPSTxId !== undefined && !VPS_TX_ID.test(fields.VPSTxId)) return undefined;
  return fields;
}
