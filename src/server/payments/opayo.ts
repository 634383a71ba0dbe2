import { randomBytes } from 'node:crypto';
import { penceToDecimal } from '../../contract/money.ts';
import { encodeFields, encryptCrypt } from './opayo-crypt.ts';

/** Opayo Form 4.00 (DESIGN.md section 5): the request Crypt built from the committed order. */

export type OpayoMode = 'local' | 'test' | 'live';

export function opayoEndpoint(mode: OpayoMode, publicUrl: string): string {
  if (mode === 'local') return `${publicUrl}/sandbox/opayo/vspform-register.vsp`;
  const host = mode === 'test' ? 'sandbox.opayo.eu.elavon.com' : 'live.opayo.eu.elavon.com';
  return `https://${host}/gateway/service/vspform-register.vsp`;
}

/**
 * A value as the protocol takes it: ISO-8859-1 letters only (others become their nearest
 * unaccented form or are dropped), no `&` (the Crypt has no escaping), trimmed to `max`.
 */
export function opayoText(value: string, max: number): string {
  return value
    .replace(/&/g, 'and')
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
