import type { Kysely } from 'kysely';

/**
 * Where a reply to a queued message goes, when not to the shop (docs/rules.md#mail): the shop's
 * copy of a contact enquiry answers the sender. Emptied once the message is sent, with its body.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_queue').addColumn('reply_to', 'varchar(320)').execute();
}
