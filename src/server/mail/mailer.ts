import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '../db/schema.ts';
import { renderMail, type MailBrand, type MailTemplate } from './templates/templates.ts';

/**
 * One mailer (docs/rules.md#mail). Services call `Mailer.send`, which puts the message in the
 * mail queue (mail-queue.ts) and returns: no request waits for SMTP. The queue's worker
 * hands each message to a `MailTransport`: SMTP when SMTP_URL is set, otherwise the outbox folder,
 * one .eml file each, where the local inbox page and the tests read it.
 */

interface MailEnvelope {
  to: string;
  subject: string;
  /** Where Reply goes, when not to the shop: an address alone, never a name someone typed. */
  replyTo?: string;
}

/**
 * A message: its envelope and its body, either one of the shop's templates with its data
 * (templates/templates.ts) or paragraphs of plain text, which the generic template sets in the
 * same branded layout. Either way the HTML and its plain-text alternative are made when it is sent.
 */
export interface MailMessage extends MailEnvelope {
  /** The template and its data; when there is one, `paragraphs` are not read. */
  template?: MailTemplate;
  /** Paragraphs of plain text, for a message without a template; a web address becomes a link. */
  paragraphs?: string[];
}

export interface Mailer {
  /**
   * Queues the message; it is sent shortly, by whichever instance claims it. Call it outside a
   * transaction: it writes on its own connection (on SQLite it would wait for the transaction's).
   */
  send(message: MailMessage): Promise<void>;
  /**
   * For an answer that must not show whether mail goes (forgot-password): `compose` runs after
   * the caller has returned, and what it answers, if anything, is queued. Errors are logged.
   */
  sendInBackground(compose: () => Promise<MailMessage | undefined>): void;
  /**
   * Queues the message in the caller's transaction: a mail that a change causes (an order paid, a
   * payment failed) is queued if and only if the change commits, so a process that dies just after
   * the commit cannot lose it (docs/rules.md#mail). Call `wake` once the transaction has committed.
   */
  sendWith(trx: Kysely<Database>, message: MailMessage): Promise<void>;
  /** Sends what was queued in a transaction that has now committed, rather than at the worker's next look. */
  wake(): void;
}

/** A message's HTML and plain-text bodies, from its template (or its paragraphs) in the shop's layout. */
export function renderBodies(message: MailMessage, brand: MailBrand): { text: string; html: string } {
  return renderMail(
    message.template ?? { name: 'paragraphs', data: { paragraphs: message.paragraphs ?? [] } },
    brand,
    message.subject,
  );
}

/** Where the queue's worker delivers a message: an SMTP server, or the outbox folder. */
export interface MailTransport {
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * A hung or slow SMTP server gives up within seconds rather than nodemailer's defaults (2 minutes
 * to connect, 30 s for the greeting, 10 minutes of silence), so it cannot hold a worker for long.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as const;

/**
 * A subject shown as it is written. Mail programs decode "=?charset?b?...?=" wherever it stands in
 * a header, so a shopper's name written that way (in a contact enquiry's subject) would show as any
 * text they chose. A zero-width space after each "=" of "=?" breaks the pattern; being outside
 * ASCII, it also has the subject sent encoded, so what shows is the text as typed.
 */
function subjectAsTyped(subject: string): string {
  return subject.replaceAll('=?', '=\u200b?');
}

export function createMailTransport(options: {
  smtpUrl: string | undefined;
  outboxDir: string;
  brand: MailBrand;
  /** The brand as the owner's settings stand when a message is sent (issue 37); `brand` without it. */
  brandNow?: () => Promise<MailBrand>;
}): MailTransport {
  const transport = options.smtpUrl
    ? nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(message) {
      const brand = options.brandNow ? await options.brandNow() : options.brand;
      const from = { name: brand.shop.name, address: brand.shop.email };
      const { text, html } = renderBodies(message, brand);
      const info = await transport.sendMail({
        from,
        to: message.to,
        ...(message.replyTo ? { replyTo: { name: '', address: message.replyTo } } : {}),
        subject: subjectAsTyped(message.subject),
        text,
        html,
      });
      if (options.smtpUrl) return;
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(join(options.outboxDir, name), (info as unknown as { message: Buffer }).message);
    },
    close: () => transport.close(),
  };
}
