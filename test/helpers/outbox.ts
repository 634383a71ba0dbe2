import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src/server/db/database.ts';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  raw: string;
}

/**
 * The messages in an outbox folder, oldest first, with their To and Subject headers. Mail goes
 * through the mail queue first: after a request that sends mail, `await mailQueueDrained(db)`
 * before reading, or the message may not be written yet.
 */
export function readOutbox(dir: string): OutboxMail[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(dir, file), 'utf8');
      // A long header (a long address) is folded onto the next lines, each starting with a space.
      const header = (name: string) =>
        new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)$`, 'mi')
          .exec(raw)?.[1]
          ?.replace(/\r?\n(?=[ \t])/g, '')
          .trim() ?? '';
      return { file, to: header('To'), subject: header('Subject'), raw };
    });
}

/**
 * Resolves once every message queued so far has been tried at least once: sent, or waiting for a
 * retry. With `app` (an app in this process), mail still being composed (forgot-password answers
 * first) is waited for too; without it, only the database is watched, which suffices for mail
 * queued within a request (another process's, say).
 */
export async function mailQueueDrained(db: Db, app?: { mailSettled?: () => Promise<void> }): Promise<void> {
  await app?.mailSettled?.();
  const timeoutMs = 10_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await db.kysely
      .selectFrom('mail_queue')
      .select(['id', 'recipient', 'subject', 'status'])
      .where((eb) =>
        eb.or([eb('status', '=', 'sending'), eb.and([eb('status', '=', 'pending'), eb('attempts', '=', 0)])]),
      )
      .execute();
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`mail still queued after ${timeoutMs} ms: ${JSON.stringify(waiting)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A test app's outbox once its mail queue has been worked through. */
export async function deliveredMail(t: {
  db: Db;
  outboxDir: string;
  app?: { mailSettled?: () => Promise<void> };
}): Promise<OutboxMail[]> {
  await mailQueueDrained(t.db, t.app);
  return readOutbox(t.outboxDir);
}

export { decodeQuotedPrintable } from '../../src/server/mail/eml.ts';
