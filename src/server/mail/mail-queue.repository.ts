import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { dialectOfHandle } from '../db/database.ts';
import type { Database, MailQueueTable } from '../db/schema.ts';
import type { MailMessage } from './mailer.ts';
import type { MailTemplate } from './templates/templates.ts';

/** The mail queue's SQL (migration 0007). Times are ISO strings, which sort as they compare. */

export type QueuedMail = Selectable<MailQueueTable>;

export async function insertMail(db: Kysely<Database>, message: MailMessage, now: string): Promise<void> {
  await db
    .insertInto('mail_queue')
    .values({
      recipient: message.to,
      subject: message.subject,
      paragraphs: storedBody(message),
      reply_to: message.replyTo ?? null,
      status: 'pending',
      next_attempt_at: now,
      claimed_until: null,
      claim_token: null,
      last_error: null,
      created_at: now,
      sent_at: null,
    })
    .execute();
}

/**
 * A message's body as the queue keeps it, in the `paragraphs` column: a JSON array of paragraphs
 * (as every message was before the templates, so those still queued send as they are), or a
 * template's name and data as a JSON object. Kept in the one column so erasing a customer's mail
 * (customers.admin-repository.ts) finds their address in either, and no migration is needed.
 */
function storedBody(message: MailMessage): string {
  return JSON.stringify(message.template ? { template: message.template } : (message.paragraphs ?? []));
}

/** The body of a queued message, read back. */
export function bodyOf(stored: string): Pick<MailMessage, 'template' | 'paragraphs'> {
  const body = JSON.parse(stored) as string[] | { template: MailTemplate };
  return Array.isArray(body) ? { paragraphs: body } : { template: body.template };
}

/** Due: pending and its time has come, or claimed by a worker whose lease ran out (it crashed). */
const due = (now: string, maxAttempts: number) => (eb: ExpressionBuilder<Database, 'mail_queue'>) =>
  eb.or([
    eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
    eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<=', now), eb('attempts', '<', maxAttempts)]),
  ]);

/**
 * Claims the oldest due message for one worker, counting the attempt. Safe with several instances
 * at once: the update re-checks that the row is still due, so two workers never hold one claim;
 * on PostgreSQL the pick skips rows another worker is claiming, so they take different messages.
 */
export async function claimNext(
  db: Kysely<Database>,
  claim: { token: string; now: string; leaseUntil: string; maxAttempts: number },
): Promise<QueuedMail | undefined> {
  let pick = db.selectFrom('mail_queue').select('id').where(due(claim.now, claim.maxAttempts)).orderBy('id').limit(1);
  if (dialectOfHandle(db) === 'postgres') pick = pick.forUpdate().skipLocked();
  return (
    db
      .updateTable('mail_queue')
      .set((eb) => ({
        status: 'sending',
        claim_token: claim.token,
        claimed_until: claim.leaseUntil,
        attempts: eb('attempts', '+', 1),
      }))
      // A scalar subquery runs once; PostgreSQL may run an `in (... limit 1)` again per row, claiming several.
      .where('id', '=', pick)
      .where(due(claim.now, claim.maxAttempts))
      .returningAll()
      .executeTakeFirst()
  );
}

/** Sent: the body (it may hold a live reset link) and the reply address are dropped; recipient and subject stay. */
export async function markSent(db: Kysely<Database>, id: number, token: string, now: string): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({
      status: 'sent',
      sent_at: now,
      paragraphs: '[]',
      reply_to: null,
      claimed_until: null,
      claim_token: null,
      last_error: null,
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/** Not sent this time: tried again at `retryAt`, or, with `retryAt` null, given up and kept as failed. */
export async function markNotSent(
  db: Kysely<Database>,
  id: number,
  token: string,
  outcome: { error: string; retryAt: string | null },
): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({
      status: outcome.retryAt ? 'pending' : 'failed',
      next_attempt_at: outcome.retryAt ?? undefined,
      claimed_until: null,
      claim_token: null,
      last_error: outcome.error.slice(0, 1000),
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/**
 * Claims that ran out on their last attempt (the worker died each time) are given up: marked
 * failed, not tried for ever. Answers how many.
 */
export async function failAbandoned(db: Kysely<Database>, now: string, maxAttempts: number): Promise<number> {
  const rows = await db
    .updateTable('mail_queue')
    .set({
      status: 'failed',
      claimed_until: null,
      claim_token: null,
      last_error: 'gave up: the worker sending it stopped on its last attempt',
    })
    .where('status', '=', 'sending')
    .where('claimed_until', '<=', now)
    .where('attempts', '>=', maxAttempts)
    .returning('id')
    .execute();
  return rows.length;
}

/** Sent messages are kept a while for the record, then removed; failed ones are never removed. */
export async function deleteSentBefore(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('mail_queue').where('status', '=', 'sent').where('sent_at', '<', before).execute();
}
