import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The contact enquiries' SQL. */

export async function insertContactMessage(
  db: Kysely<Database>,
  message: { email: string; name: string; phone: string; message: string; at: string },
): Promise<void> {
  await db
    .insertInto('contact_messages')
    .values({
      email: message.email,
      name: message.name,
      phone: message.phone,
      message: message.message,
      created_at: message.at,
    })
    .execute();
}
