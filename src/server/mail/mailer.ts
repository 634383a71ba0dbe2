import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { ShopIdentity } from '../../contract/shop.ts';

/**
 * One mailer (DESIGN.md section 7): SMTP when SMTP_URL is set, otherwise every message is written
 * to the outbox folder as an .eml file, where the local inbox page and the tests read it.
 */

export interface MailMessage {
  to: string;
  subject: string;
  /** Paragraphs of plain text; the HTML body is made from the same paragraphs. */
  paragraphs: string[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const linkify = (html: string) => html.replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

export function renderBodies(message: MailMessage, shop: ShopIdentity): { text: string; html: string } {
  const footer = `${shop.name}, ${shop.address}. Telephone ${shop.phone}. Company number ${shop.companyNumber}.`;
  const text = [...message.paragraphs, '--', footer].join('\n\n');
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#2a1d17;line-height:1.5">
${message.paragraphs.map((p) => `<p>${linkify(escape(p)).replace(/\n/g, '<br>')}</p>`).join('\n')}
<hr><p style="font-size:12px;color:#5c483d">${escape(footer)}</p></body></html>`;
  return { text, html };
}

export function createMailer(options: { smtpUrl: string | undefined; outboxDir: string; shop: ShopIdentity }): Mailer {
  const from = { name: options.shop.name, address: options.shop.email };
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const { text, html } = renderBodies(message, options.shop);
      const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text, html });
      if (options.smtpUrl) return;
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(join(options.outboxDir, name), (info as unknown as { message: Buffer }).message);
    },
  };
}
