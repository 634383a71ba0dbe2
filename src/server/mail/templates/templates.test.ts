import { describe, expect, it } from 'vitest';
import { testMailBrand } from '../../../../test/helpers/mail-brand.ts';
import { sampleMails } from '../../../../test/helpers/mail-samples.ts';
import { bodyOf } from '../mail-queue.repository.ts';
import { renderBodies, type MailMessage } from '../mailer.ts';

/** Each template's content, in its HTML and in its plain-text alternative (docs/rules.md#mail). */

const publicUrl = 'https://shop.example';
const brand = testMailBrand({ publicUrl });
const mails = new Map(sampleMails(publicUrl).map(({ name, message }) => [name, message]));
const mail = (name: string): MailMessage => mails.get(name)!;
const orderUrl = `${publicUrl}${brand.orderPath(100042, 1)}`;

/** The HTML's text, as a reader sees it: tags gone, entities read. */
const htmlText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** Each fact is in both bodies; each link is a link in the HTML and an address in the text. */
function expectInBoth(message: MailMessage, facts: string[], links: string[]) {
  const { html, text } = renderBodies(message, brand);
  const flatText = text.replace(/\s+/g, ' ');
  for (const fact of facts) {
    expect(htmlText(html), fact).toContain(fact);
    expect(flatText, fact).toContain(fact);
  }
  for (const link of links) {
    expect(html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    expect(text).toContain(link);
  }
  return { html, text };
}

describe('every template', () => {
  it.each([...mails.keys()])('%s: the shop’s layout, with nothing from elsewhere', (name) => {
    const { html, text } = renderBodies(mail(name), brand);
    expect(html).toMatch(/^<!DOCTYPE html/);
    expect(html).toContain('lang="en-GB"');
    expect(html).toContain('max-width:600px');
    // The footer: name, address, phone, company and VAT numbers.
    for (const fact of [brand.shop.name, brand.shop.phone, brand.shop.companyNumber, brand.vatNumber]) {
      expect(html).toContain(fact);
      expect(text).toContain(fact);
    }
    // Every image from the shop's own address; no style sheet, font or script to fetch.
    for (const [, src] of html.matchAll(/<img[^>]+src="([^"]+)"/g)) expect(src!.startsWith(`${publicUrl}/`)).toBe(true);
    // (React adds a preload <link> for each image: the same address.)
    for (const [, href] of html.matchAll(/<link[^>]+href="([^"]+)"/g))
      expect(href!.startsWith(`${publicUrl}/`)).toBe(true);
    expect(html).not.toMatch(/<script\b|<style\b|@import|url\(/i);
  });
});

describe('the order confirmation', () => {
  it('gives the order number and date, lines with pictures, totals with VAT and the VAT number, addresses and the order page', () => {
    const { html } = expectInBoth(
      mail('order confirmation'),
      [
        'Order number: 100042',
        'Order date: 27 November 2026',
        '1 x Tabla set (Standard)',
        '£14.00',
        'Delivery, Standard delivery: £4.95',
        'Total paid: £18.95 (including VAT of £3.16)',
        `VAT number ${brand.vatNumber}`,
        'Delivery address: 12 Market Street, West Bromwich, B70 7NJ',
        'Billing address: 12 Market Street, West Bromwich, B70 7NJ',
      ],
      [orderUrl, `${publicUrl}/documents/invoice/x`],
    );
    expect(html).toContain(`src="${publicUrl}/images/photos/0123456789abcdef0123456789abcdef-160.webp"`);
    expect(html).toContain('View order 100042');
  });

  it('carries the cancellation information and the model cancellation form with the shop’s name, address and e-mail', () => {
    const { shop } = brand;
    expectInBoth(
      mail('order confirmation'),
      [
        'You may cancel this order within 14 days without giving any reason',
        'including the cost of standard delivery',
        'within 14 days of the day we receive the goods back',
        'there is no restocking fee',
        'Model cancellation form',
        `To: ${shop.name}, ${shop.address}, ${shop.email}`,
        'I/We [*] hereby give notice that I/We [*] cancel my/our [*] contract of sale of the following goods [*]',
        'Ordered on [*] / received on [*]',
        'Signature of consumer(s) (only if this form is notified on paper)',
      ],
      [],
    );
  });

  it('for a collection, says where to collect it, with no delivery address', () => {
    const { text } = expectInBoth(
      mail('order confirmation, collected'),
      [`To collect: Collect from the Leicester shop, from ${brand.shop.address}`],
      [orderUrl],
    );
    expect(text).not.toContain('Delivery address');
  });
});

describe('the other order e-mails', () => {
  it('payment failed: the amount and a button to pay again', () => {
    const { html } = expectInBoth(
      mail('payment failed'),
      ['Your payment of £18.95 for order 100042 was not completed'],
      [`${publicUrl}/order-recovery/AAAAAAAAAAAAAAAAAAAAAA`],
    );
    expect(html).toContain('Try the payment again');
  });

  it('dispatch: what was sent, its tracking, what is to come, where it goes, and the order page', () => {
    expectInBoth(
      mail('dispatch'),
      [
        'part of your order 100042 is on its way',
        '1 x Tabla set (Standard)',
        'Its tracking number is AB123456789GB',
        'Still to come, sent separately:',
        '1 x Harmonium (Scale changer)',
        'It is on its way to: 12 Market Street, West Bromwich, B70 7NJ',
      ],
      [orderUrl, `${publicUrl}/track/AB123456789GB`],
    );
  });

  it('ready for collection: the shop’s address, the order number to bring, and the order page', () => {
    expectInBoth(
      mail('ready for collection'),
      [
        'your order 100042 is packed and ready for you to collect (Collect from the Leicester shop)',
        `Where: ${brand.shop.name}, ${brand.shop.address}`,
        'your order number, 100042',
      ],
      [orderUrl],
    );
  });

  it('refund: the amount, how it comes back, the credit note and the order page', () => {
    const message = mail('refund');
    expect(message.subject).toBe('Your refund for order 100042');
    expectInBoth(
      message,
      ['We have refunded £18.95 for your order 100042', 'It goes back to the card you paid with'],
      [orderUrl, `${publicUrl}${brand.creditNotePath(7, 1)}`],
    );
  });
});

describe('the notice and paragraphs templates', () => {
  it('a notice: its heading, words and a button for its link', () => {
    const { html } = expectInBoth(
      mail('notice'),
      ['Choose a new password', 'Dear Asha Kaur,', 'The link works once and for 1 hour.'],
      [`${publicUrl}/reset-password/abc`],
    );
    // A button: the link is a block with the shop's colour, its words the label, not the address.
    expect(html).toMatch(/<a href="https:\/\/shop\.example\/reset-password\/abc"[^>]*background-color:#8a2f0f[^>]*>/);
    expect(html).not.toContain('>https://shop.example/reset-password/abc<');
  });

  it('a cancellation or a return: a notice with a button to the order page, signed when rendered, not stored', () => {
    for (const name of ['cancellation, refund pending', 'return authorised']) {
      const message = mail(name);
      expect(JSON.stringify(message)).not.toContain(brand.orderPath(100042, 1));
      const { html } = expectInBoth(message, ['Dear Asha,'], [orderUrl]);
      expect(html).toMatch(/<a href="https:\/\/shop\.example\/order\/[^"]+"[^>]*background-color:#8a2f0f[^>]*>/);
      expect(html).toContain('View your order');
    }
  });

  it('a refund for a cancellation or a return says what it was for', () => {
    expectInBoth(
      mail('refund for a cancellation'),
      ['Order cancelled by the customer', '1 x Tabla set (Standard)'],
      [orderUrl],
    );
  });

  it('paragraphs, as other messages are written, in the same layout: line breaks kept, addresses linked', () => {
    const { html } = expectInBoth(
      mail('paragraphs'),
      ['Dear Asha Kaur,', 'We have cancelled your order.'],
      [`${publicUrl}/order/100042.x`],
    );
    expect(html).toContain('Line one<br/>Line two');
  });
});

describe('what a shopper typed', () => {
  it('never becomes a link: an address in a name is plain text, the shop’s own address still a link', () => {
    const message: MailMessage = {
      to: 'orders@shop.example',
      subject: 'Order 100042 cancelled by the customer',
      paragraphs: [
        'Asha https://evil.example/pay cancelled the whole order from the order page:',
        `The order: ${publicUrl}/admin/orders/100042`,
      ],
    };
    const { html } = renderBodies(message, brand);
    expect(html).toContain('Asha https://evil.example/pay cancelled');
    expect(html).not.toMatch(/<a [^>]*href="https:\/\/evil\.example/);
    expect(html).toContain(`href="${publicUrl}/admin/orders/100042"`);
  });
});

describe('a queued message’s body', () => {
  it('is read back as it was stored: paragraphs queued before the templates, or a template and its data', () => {
    expect(bodyOf('["Dear Asha,","Line one"]')).toEqual({ paragraphs: ['Dear Asha,', 'Line one'] });
    const template = mail('refund').template!;
    expect(bodyOf(JSON.stringify({ template }))).toEqual({ template });
  });
});
