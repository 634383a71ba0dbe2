import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/helpers/test-db.ts';
import type { Db } from '../db/database.ts';
import { createMailQueue, type MailQueueOptions } from './mail-queue.ts';
import type { MailMessage, MailTransport } from './mailer.ts';

/** The mail queue (docs/rules.md#mail): nothing lost while SMTP is down or an instance dies, nothing sent twice. */
describe('the mail queue', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let connect: () => Db;
  let now: Date;
  const clock = () => now;
  const pass = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  const errors: string[] = [];
  const log = { warn: () => {}, error: (_detail: unknown, message?: string) => void errors.push(message ?? '') };

  beforeEach(async () => {
    const created = await createTestDb();
    db = created.db;
    drop = () => created.database.drop();
    connect = () => created.database.connect();
    now = new Date('2026-05-01T10:00:00.000Z');
    errors.length = 0;
  });
  afterEach(() => drop());

  /** A transport standing in for SMTP: it records what it sends, and can be down. */
  function smtp(options: { down?: boolean; delayMs?: number } = {}) {
    const sent: MailMessage[] = [];
    const transport: MailTransport & { sent: MailMessage[]; down: boolean } = {
      sent,
      down: options.down ?? false,
      async deliver(message) {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (transport.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
        sent.push(message);
      },
      close() {},
    };
    return transport;
  }
  const queue = (on: Db, transport: MailTransport, options: Partial<MailQueueOptions> = {}) =>
    createMailQueue(on.kysely, { transport, log, clock, ...options });
  const order = (n: number): MailMessage => ({
    to: 'asha@example.com',
    subject: `Your order ${n} is confirmed`,
    paragraphs: ['Dear Asha,', `Thank you for order ${n}.`],
  });
  const rows = () => db.kysely.selectFrom('mail_queue').selectAll().orderBy('id').execute();

  it('keeps an order e-mail while SMTP is down, tries again later and later, and sends it once SMTP is back, also after a restart', async () => {
    const down = smtp({ down: true });
    const first = queue(db, down);
    await first.mailer.send(order(1001));
    await first.drain();
    expect(await rows()).toMatchObject([
      { status: 'pending', attempts: 1, next_attempt_at: '2026-05-01T10:00:30.000Z' },
    ]);
    expect((await rows())[0]?.last_error).toContain('ECONNREFUSED');
    // Not due yet: nothing is tried.
    pass(29_000);
    await first.drain();
    expect((await rows())[0]?.attempts).toBe(1);
    // Still down: the wait doubles.
    pass(1_000);
    await first.drain();
    expect(await rows()).toMatchObject([{ attempts: 2, next_attempt_at: '2026-05-01T10:01:30.000Z' }]);
    await first.stop();

    // The process restarts (a new worker on a new connection), and SMTP is back.
    const back = smtp();
    const second = queue(connect(), back);
    pass(59_000);
    await second.drain();
    expect(back.sent).toEqual([]);
    pass(1_000);
    await second.drain();
    await second.drain();
    expect(back.sent).toEqual([order(1001)]);
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 3, last_error: null }]);
    expect(errors).toEqual([]);
    await second.stop();
  });

  it('gives up after the last attempt, keeping the message as failed with its error, and says so in the log', async () => {
    const down = smtp({ down: true });
    const worker = queue(db, down, { maxAttempts: 3 });
    await worker.mailer.send(order(1002));
    for (let i = 0; i < 5; i++) {
      await worker.drain();
      pass(3_600_000);
    }
    expect(await rows()).toMatchObject([{ status: 'failed', attempts: 3, subject: 'Your order 1002 is confirmed' }]);
    expect((await rows())[0]?.last_error).toContain('ECONNREFUSED');
    expect((await rows())[0]?.paragraphs).toContain('Thank you for order 1002.');
    expect(errors).toEqual(['e-mail not sent: given up, kept in mail_queue as failed']);
    await worker.stop();
  });

  it("takes over a message whose worker died mid-send once its lease runs out, and the dead worker's late answer changes nothing", async () => {
    let crash: (error: Error) => void = () => {};
    const hung: MailTransport = {
      deliver: () => new Promise((_, reject) => (crash = reject)),
      close() {},
    };
    const dead = queue(db, hung, { leaseMs: 60_000, sendTimeoutMs: 3_600_000 });
    await dead.mailer.send(order(1003));
    await expect.poll(async () => (await rows())[0]?.status).toBe('sending');

    const other = smtp();
    const alive = queue(connect(), other, { leaseMs: 60_000 });
    await alive.drain();
    expect(other.sent).toEqual([]);
    pass(60_000);
    await alive.drain();
    expect(other.sent).toEqual([order(1003)]);
    // The first worker's send fails at last: the message stays sent, once.
    crash(new Error('socket hang up'));
    await dead.drain();
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 2, last_error: null }]);
    await alive.stop();
  });

  it('sends each message once when two instances work the same queue at the same moment', async () => {
    const producer = queue(db, smtp());
    await producer.stop();
    for (let n = 1; n <= 30; n++) await producer.mailer.send(order(n));
    const a = smtp({ delayMs: 2 });
    const b = smtp({ delayMs: 2 });
    const workerA = queue(connect(), a);
    const workerB = queue(connect(), b);
    await Promise.all([workerA.drain(), workerB.drain(), workerA.drain(), workerB.drain()]);
    const subjects = [...a.sent, ...b.sent].map((m) => m.subject).sort();
    expect(subjects).toEqual(Array.from({ length: 30 }, (_, i) => `Your order ${i + 1} is confirmed`).sort());
    expect((await rows()).every((row) => row.status === 'sent')).toBe(true);
    await Promise.all([workerA.stop(), workerB.stop()]);
  });
});
