import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { ShopIdentity } from '../../contract/shop.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import {
  claimNext,
  deleteSentBefore,
  failAbandoned,
  insertMail,
  markNotSent,
  markSent,
  type QueuedMail,
} from './mail-queue.repository.ts';
import { createDocumentLinks } from '../documents/document-links.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { bodyOf } from './mail-queue.repository.ts';
import type { MailBrand } from './templates/templates.ts';
import { createMailTransport, type Mailer, type MailMessage, type MailTransport } from './mailer.ts';

/**
 * The durable mail queue (docs/rules.md#mail). `send` stores the message and returns, so no request waits
 * for SMTP (a slow server showed which addresses are registered, and a hung one held requests for
 * 30 s). Each instance runs a worker: right after a message is queued, and every few seconds, it
 * claims due messages one at a time under a lease and hands them to the transport. A failure is
 * tried again after 30 s, 1, 2, 4 ... minutes (at most an hour apart, about five hours in all); after `maxAttempts` the
 * message stays in the table, marked failed with its last error, and is logged as an error.
 */

export interface MailQueueOptions {
  transport: MailTransport;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  clock?: () => Date;
  /** How often an idle worker looks for due messages (retries, other instances' leftovers). */
  pollMs?: number;
  maxAttempts?: number;
  /** The first retry's delay; each later one doubles, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long a claim holds: longer than a send may take (`sendTimeoutMs`). */
  leaseMs?: number;
  /** A send that takes longer counts as failed, whatever the SMTP server is doing. */
  sendTimeoutMs?: number;
}

export interface MailQueue {
  mailer: Mailer;
  /** Sends every due message now; resolves when none is left (or the worker is stopping). */
  drain(): Promise<void>;
  /** Waits for messages being composed in the background to be queued, then drains. */
  settled(): Promise<void>;
  start(): void;
  /** Stops the worker, waiting up to `waitMs` for a message being sent. */
  stop(waitMs?: number): Promise<void>;
}

/** Twelve attempts, 30 s to an hour apart: a message is tried for about five hours. */
export const MAIL_DEFAULTS = {
  pollMs: 5_000,
  maxAttempts: 12,
  backoffMs: 30_000,
  maxBackoffMs: 3_600_000,
  leaseMs: 60_000,
  sendTimeoutMs: 30_000,
} as const;

const SENT_KEPT_DAYS = 30;

export function createMailQueue(db: Kysely<Database>, options: MailQueueOptions): MailQueue {
  const settings = {
    pollMs: options.pollMs ?? MAIL_DEFAULTS.pollMs,
    maxAttempts: options.maxAttempts ?? MAIL_DEFAULTS.maxAttempts,
    backoffMs: options.backoffMs ?? MAIL_DEFAULTS.backoffMs,
    maxBackoffMs: options.maxBackoffMs ?? MAIL_DEFAULTS.maxBackoffMs,
    leaseMs: options.leaseMs ?? MAIL_DEFAULTS.leaseMs,
    sendTimeoutMs: options.sendTimeoutMs ?? MAIL_DEFAULTS.sendTimeoutMs,
  };
  const clock = options.clock ?? (() => new Date());
  const later = (ms: number) => new Date(clock().getTime() + ms).toISOString();
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastHousekeeping = 0;

  async function sendOne(mail: QueuedMail, token: string): Promise<void> {
    try {
      const message: MailMessage = {
        to: mail.recipient,
        subject: mail.subject,
        ...bodyOf(mail.paragraphs),
        ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
      };
      await withTimeout(options.transport.deliver(message), settings.sendTimeoutMs);
    } catch (error) {
      const attempts = mail.attempts;
      const giveUp = attempts >= settings.maxAttempts;
      const retryAt = giveUp ? null : later(Math.min(settings.backoffMs * 2 ** (attempts - 1), settings.maxBackoffMs));
      await markNotSent(db, mail.id, token, { error: errorText(error), retryAt });
      const detail = { mailId: mail.id, subject: mail.subject, attempts, err: error };
      if (giveUp) options.log.error(detail, 'e-mail not sent: given up, kept in mail_queue as failed');
      else options.log.warn({ ...detail, retryAt }, 'e-mail not sent: will try again');
      return;
    }
    await markSent(db, mail.id, token, clock().toISOString());
  }

  async function housekeeping(): Promise<void> {
    const now = clock();
    if (now.getTime() - lastHousekeeping < settings.pollMs) return;
    lastHousekeeping = now.getTime();
    const abandoned = await failAbandoned(db, now.toISOString(), settings.maxAttempts);
    if (abandoned) options.log.error({ count: abandoned }, 'e-mail not sent: given up, kept in mail_queue as failed');
    await deleteSentBefore(db, new Date(now.getTime() - SENT_KEPT_DAYS * 86_400_000).toISOString());
  }

  async function work(): Promise<void> {
    await housekeeping();
    do {
      again = false;
      while (!stopped) {
        const token = randomUUID();
        const mail = await claimNext(db, {
          token,
          now: clock().toISOString(),
          leaseUntil: later(settings.leaseMs),
          maxAttempts: settings.maxAttempts,
        });
        if (!mail) break;
        await sendOne(mail, token);
      }
    } while (again && !stopped);
  }

  function drain(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      // A message queued while the worker runs is picked up before it stops.
      again = true;
      return running;
    }
    running = work()
      .catch((error: unknown) => {
        if (!stopped) options.log.error({ err: error }, 'mail queue worker failed');
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const composing = new Set<Promise<void>>();
  const mailer: Mailer = {
    async send(message) {
      await insertMail(db, message, clock().toISOString());
      void drain();
    },
    async sendWith(trx, message) {
      await insertMail(trx, message, clock().toISOString());
    },
    wake() {
      void drain();
    },
    sendInBackground(compose) {
      const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(compose)
        .then((message) => (message ? mailer.send(message) : undefined))
        .catch((error: unknown) => options.log.error({ err: error }, 'e-mail not queued'))
        .finally(() => composing.delete(task));
      composing.add(task);
    },
  };
  const composed = async (waitMs: number) => {
    const deadline = Date.now() + waitMs;
    while (composing.size && Date.now() < deadline) {
      const left = deadline - Date.now();
      await Promise.race([Promise.all(composing), new Promise((resolve) => setTimeout(resolve, left).unref())]);
    }
  };

  return {
    mailer,
    drain,
    async settled() {
      await composed(10_000);
      await drain();
    },
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => void drain(), settings.pollMs);
      timer.unref();
      void drain();
    },
    async stop(waitMs = 3_000) {
      // Messages being composed are queued first, so the next worker sends them.
      await composed(waitMs);
      stopped = true;
      clearInterval(timer);
      // A send in progress gets a moment; if it takes longer its lease runs out and another
      // instance (or this one, restarted) sends it again.
      if (running) await Promise.race([running, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
      options.transport.close();
    },
  };
}

/**
 * The mail queue of one app: its worker starts when the app is ready and stops when it closes.
 * Answers the mailer that services call.
 */
export function registerMailQueue(
  app: FastifyInstance,
  db: Db,
  config: Pick<Config, 'smtpUrl' | 'mailOutboxDir' | 'shop' | 'publicUrl' | 'documentIssuer'> & {
    /** The shop's cookie secret, which signs the order page links in its e-mails. */
    cookieSecret: string;
    /** The shop's identity and VAT number as the owner's settings stand now (settings.service.ts). */
    shopNow?: () => Promise<{ shop: ShopIdentity; vatNumber: string }>;
  },
  /** Wraps the transport (tracing puts a span around each delivery). */
  wrapTransport: (transport: MailTransport) => MailTransport = (transport) => transport,
): Mailer {
  const brand = mailBrandOf(config);
  const { shopNow } = config;
  // On the money path's connections: an order's and a payment's e-mails are queued as part of
  // them (docs/decisions/0020-checkout-first.md).
  const queue = createMailQueue(db.checkout, {
    transport: wrapTransport(
      createMailTransport({
        smtpUrl: config.smtpUrl,
        outboxDir: config.mailOutboxDir,
        brand,
        ...(shopNow ? { brandNow: async () => ({ ...brand, ...(await shopNow()) }) } : {}),
      }),
    ),
    log: app.log,
  });
  // Tests wait on this before reading the outbox (test/helpers/outbox.ts).
  app.decorate('mailSettled', () => queue.settled());
  app.addHook('onReady', async () => queue.start());
  app.addHook('onClose', async () => queue.stop());
  return queue.mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the mail queued or being composed so far has been tried. */
    mailSettled(): Promise<void>;
  }
}

/** The shop as its e-mails show it: its identity, VAT number, address on the web, and order page links. */
export function mailBrandOf(
  config: Pick<Config, 'shop' | 'publicUrl' | 'documentIssuer'> & { cookieSecret: string },
): MailBrand {
  const links = createOrderLinks(config.cookieSecret);
  const documents = createDocumentLinks(config.cookieSecret);
  return {
    shop: config.shop,
    vatNumber: config.documentIssuer.vatNumber,
    publicUrl: config.publicUrl,
    orderPath: (orderNumber, linkVersion) => links.pathOf(orderNumber, linkVersion),
    creditNotePath: (creditNoteNumber, linkVersion) => documents.pathTo('credit-note', creditNoteNumber, linkVersion),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the mail server within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
